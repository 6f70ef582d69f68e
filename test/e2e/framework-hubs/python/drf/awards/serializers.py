from rest_framework import serializers

from .models import Award, Staker


class AwardSerializer(serializers.ModelSerializer):
    class Meta:
        model = Award
        fields = ["id", "wallet", "amount", "reason", "ref", "created_at"]


class StakerSerializer(serializers.ModelSerializer):
    rank = serializers.IntegerField(read_only=True)

    class Meta:
        model = Staker
        fields = ["rank", "wallet", "staked"]


class StakeStatusQuery(serializers.Serializer):
    wallet = serializers.CharField()
