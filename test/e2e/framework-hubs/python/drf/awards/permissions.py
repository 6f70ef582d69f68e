from rest_framework.permissions import BasePermission

from hubcommon import HUBS


class KeyScopedToHub(BasePermission):
    """A key reads and writes its own hub only (spec part 1: 403). An unknown hub is the view's 404."""

    message = "This API key is scoped to another hub."

    def has_permission(self, request, view):
        if not (request.user and request.user.is_authenticated):
            return False
        slug = view.kwargs.get("slug")
        return slug not in HUBS or request.user.hub == slug
