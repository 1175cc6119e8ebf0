from __future__ import annotations

from django.conf import settings
from django.middleware.locale import LocaleMiddleware
from django.utils import translation


class DeviceLanguageMiddleware(LocaleMiddleware):
    """French, the game's home, unless this device chose English with the language switch
    (remembered in Django's language cookie); the browser's Accept-Language is not asked."""

    def process_request(self, request) -> None:
        language = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        if language not in dict(settings.LANGUAGES):
            language = settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()


class ContentSecurityPolicyMiddleware:
    """Send the Content-Security-Policy of the settings with every response."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        response.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
        return response
