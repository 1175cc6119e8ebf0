from __future__ import annotations

from django.urls import include, path

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("scoring.urls")),
]

handler400 = "scoring.errors.bad_request"
handler404 = "scoring.errors.not_found"
handler500 = "scoring.errors.server_error"
