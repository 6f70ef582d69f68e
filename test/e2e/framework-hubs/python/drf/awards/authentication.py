from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import AuthenticationFailed

from hubcommon import KEYS


class ApiKey:
    """The key a request came with, as ``request.user``."""

    is_authenticated = True

    def __init__(self, client_id, hub):
        self.pk = client_id
        self.hub = hub


class ApiKeyAuthentication(BaseAuthentication):
    """``x-api-key``: no header is no authentication (DRF answers 401), an unknown key a 401."""

    def authenticate(self, request):
        client_id = request.headers.get("x-api-key")
        if not client_id:
            return None
        key = KEYS.get(client_id)
        if key is None:
            raise AuthenticationFailed("Invalid API key.")
        return ApiKey(client_id, key["hub"]), client_id

    def authenticate_header(self, request):
        return "ApiKey"
