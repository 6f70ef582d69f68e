"""What the Python test hubs share, as test/e2e/framework-hubs/common.mjs is for the Node ones: the
seed (hub ``alpha``, key ``pk_alpha_e2e`` and its secret, stakers, holders, balances) and the write
signature checked with Python's own hmac from the spec (part 5), never the SDK's signer. Each hub
answers in its framework's own way; only the data and the signature rule are shared.

The leaderboard has 25 stakers (the five of common.mjs, then 20 more) so that it has pages.
"""
import hashlib
import hmac
import os
import re
import time

SLUG = "alpha"
OTHER_SLUG = "beta"
CLIENT_ID = "pk_alpha_e2e"
SECRET = "sk_alpha_e2e_0123456789abcdef"
PREFIX = "/api/v1"
TOLERANCE_S = 300

CONFIG = {"name": "Alpha Hub", "description": "A framework test hub.", "token": {"symbol": "ALP", "decimals": 18}}
STAKERS = [
    ("0x1111111111111111111111111111111111111111", 52_000),
    ("0x2222222222222222222222222222222222222222", 31_500),
    ("0x3333333333333333333333333333333333333333", 12_250),
    ("0x4444444444444444444444444444444444444444", 9_000),
    ("0x5555555555555555555555555555555555555555", 400),
] + [("0x" + "ab" * 19 + f"{n:02d}", 400 - (n - 5) * 15) for n in range(6, 26)]
HOLDERS = {"0x1111111111111111111111111111111111111111": 120, "0x2222222222222222222222222222222222222222": 45}
BALANCES = {"0x1111111111111111111111111111111111111111": 250}

# The server keeps sha256(secret) in hex, never the secret (spec part 2); the key is scoped to one hub.
KEYS = {CLIENT_ID: {"hub": SLUG, "stored_key": hashlib.sha256(SECRET.encode()).hexdigest()}}
HUBS = {SLUG: CONFIG, OTHER_SLUG: {"name": "Beta Hub"}}

WALLET = r"^0x[0-9a-fA-F]{40}$"


def ranked():
    """The leaderboard's rows, largest stake first."""
    rows = sorted(STAKERS, key=lambda staker: -staker[1])
    return [{"rank": index + 1, "wallet": wallet, "staked": staked} for index, (wallet, staked) in enumerate(rows)]


def signature_problem(client_id, timestamp, signature, method, path, body):
    """Why a signed write's signature fails, or None: HMAC-SHA256, key = hex sha256(secret) as a
    string, over ``timestamp.METHOD.path.body``, the timestamp within ±300 s (spec part 5)."""
    key = KEYS.get(client_id or "")
    if key is None:
        return "Unknown API key."
    if not timestamp or not re.fullmatch(r"\d+", timestamp):
        return "x-api-timestamp must be Unix seconds."
    if abs(int(time.time()) - int(timestamp)) > TOLERANCE_S:
        return "x-api-timestamp is not within 300 s of server time."
    message = f"{timestamp}.{method.upper()}.{path}.".encode() + body
    expected = hmac.new(key["stored_key"].encode(), message, hashlib.sha256).hexdigest()
    if not signature or not hmac.compare_digest(expected, signature):
        return "The signature does not match."
    return None


def award_rate(default):
    """The awards' rate limit, from HUB_AWARD_RATE (e.g. ``5/minute``)."""
    return os.environ.get("HUB_AWARD_RATE", default)
