from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models


class Staker(models.Model):
    wallet = models.CharField(max_length=42, unique=True)
    staked = models.PositiveIntegerField()


class Balance(models.Model):
    wallet = models.CharField(max_length=42, unique=True)
    bits = models.IntegerField(default=0)


class Award(models.Model):
    """One award of points; the unique index on ``ref`` gives an award once per ref."""

    hub = models.SlugField()
    wallet = models.CharField(max_length=42, validators=[RegexValidator(r"^0x[0-9a-fA-F]{40}$")])
    amount = models.IntegerField(validators=[MinValueValidator(1), MaxValueValidator(1_000_000)])
    reason = models.CharField(max_length=200, blank=True)
    ref = models.CharField(max_length=200, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
