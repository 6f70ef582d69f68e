"""The seed (hubcommon.py): the leaderboard's stakers and the balances the hub starts with."""
from django.db import migrations

from hubcommon import BALANCES, STAKERS


def seed(apps, schema_editor):
    apps.get_model("awards", "Staker").objects.bulk_create(apps.get_model("awards", "Staker")(wallet=wallet, staked=staked) for wallet, staked in STAKERS)
    apps.get_model("awards", "Balance").objects.bulk_create(apps.get_model("awards", "Balance")(wallet=wallet, bits=bits) for wallet, bits in BALANCES.items())


class Migration(migrations.Migration):
    dependencies = [("awards", "0001_initial")]
    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
