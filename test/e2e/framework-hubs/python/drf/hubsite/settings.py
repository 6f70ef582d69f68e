"""Settings of the Django REST framework test hub: DEBUG off (Django's own HTML 404 page), sqlite
in HUB_DB_DIR, DRF with API-key authentication, a scoped throttle on awards (HUB_AWARD_RATE, e.g.
``5/minute``) and page-number pagination of the leaderboard (HUB_PAGE_SIZE rows a page)."""
import os
import sys
import tempfile
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR.parent))  # hubcommon.py, shared by the Python hubs
from hubcommon import award_rate  # noqa: E402

SECRET_KEY = "e2e-only-not-a-secret"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "rest_framework",
    "awards",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.common.CommonMiddleware",
]
ROOT_URLCONF = "hubsite.urls"
WSGI_APPLICATION = "hubsite.wsgi.application"

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": Path(os.environ.get("HUB_DB_DIR") or tempfile.mkdtemp(prefix="drf-hub-")) / "hub.sqlite3",
        "OPTIONS": {"timeout": 20},
    }
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USE_TZ = True
TIME_ZONE = "UTC"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["awards.authentication.ApiKeyAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["awards.permissions.KeyScopedToHub"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_THROTTLE_CLASSES": ["rest_framework.throttling.ScopedRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {"awards": award_rate("600/minute")},
    "PAGE_SIZE": int(os.environ.get("HUB_PAGE_SIZE", "10")),
}
# PAGE_SIZE is for the leaderboard's pagination_class only, as DRF's own hint says.
SILENCED_SYSTEM_CHECKS = ["rest_framework.W001"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"django": {"handlers": ["console"], "level": os.environ.get("HUB_LOG_LEVEL", "ERROR")}},
}
