from django.db import transaction
from django.db.models import F, Window
from django.db.models.functions import RowNumber
from django.http import Http404
from rest_framework import generics
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from hubcommon import HOLDERS, HUBS, signature_problem

from .models import Award, Balance, Staker
from .serializers import AwardSerializer, StakerSerializer, StakeStatusQuery


def hub_or_404(slug):
    if slug not in HUBS:
        raise Http404
    return HUBS[slug]


def bits_of(wallet):
    return Balance.objects.filter(wallet=wallet).values_list("bits", flat=True).first() or 0


def ranked_stakers():
    return Staker.objects.annotate(rank=Window(expression=RowNumber(), order_by=F("staked").desc())).order_by("-staked")


@api_view(["GET"])
@authentication_classes([])
@permission_classes([AllowAny])
def discovery(request):
    return Response({
        "name": "Alpha test hub",
        "version": "v1",
        "framework": "djangorestframework",
        "endpoints": [
            {"method": "GET", "path": "/hub/{slug}", "auth": "key"},
            {"method": "GET", "path": "/hub/{slug}/leaderboard", "auth": "key", "query": ["limit", "page"]},
            {"method": "GET", "path": "/hub/{slug}/holder/{wallet}", "auth": "key"},
            {"method": "GET", "path": "/hub/{slug}/stake-status", "auth": "key", "query": ["wallet"]},
            {"method": "POST", "path": "/hub/{slug}/bits/earn", "auth": "key+signature"},
        ],
    })


class HubDetail(APIView):
    def get(self, request, slug):
        return Response({"slug": slug, **hub_or_404(slug)})


class LeaderboardPagination(PageNumberPagination):
    page_size_query_param = "limit"
    max_page_size = 100


class Leaderboard(generics.ListAPIView):
    serializer_class = StakerSerializer
    pagination_class = LeaderboardPagination

    def get_queryset(self):
        hub_or_404(self.kwargs["slug"])
        return ranked_stakers()


class HolderDetail(APIView):
    def get(self, request, slug, wallet):
        hub_or_404(slug)
        tokens = HOLDERS.get(wallet)
        return Response({"hub": slug, "wallet": wallet, "holder": tokens is not None, "tokens": tokens or 0, "bits": bits_of(wallet)})


class StakeStatus(APIView):
    def get(self, request, slug):
        hub_or_404(slug)
        query = StakeStatusQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        wallet = query.validated_data["wallet"]
        row = next((row for row in ranked_stakers() if row.wallet == wallet), None)
        return Response({"hub": slug, "wallet": wallet, "staking": row is not None, "staked": row.staked if row else 0, "rank": row.rank if row else None})


class AwardCreate(generics.CreateAPIView):
    serializer_class = AwardSerializer
    throttle_scope = "awards"

    def create(self, request, *args, **kwargs):
        hub_or_404(kwargs["slug"])
        problem = signature_problem(
            request.headers.get("x-api-key"),
            request.headers.get("x-api-timestamp"),
            request.headers.get("x-api-signature"),
            request.method,
            request.path,
            request.body,
        )
        if problem:
            raise AuthenticationFailed(problem)
        return super().create(request, *args, **kwargs)

    def perform_create(self, serializer):
        with transaction.atomic():
            award = serializer.save(hub=self.kwargs["slug"])
            if not Balance.objects.filter(wallet=award.wallet).update(bits=F("bits") + award.amount):
                Balance.objects.create(wallet=award.wallet, bits=award.amount)


@api_view(["GET"])
@authentication_classes([])
@permission_classes([AllowAny])
def ledger(request):
    awards = Award.objects.order_by("id").values("wallet", "amount", "reason", "ref")
    return Response({"awards": list(awards), "balances": dict(Balance.objects.values_list("wallet", "bits"))})
