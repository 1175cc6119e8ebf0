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
