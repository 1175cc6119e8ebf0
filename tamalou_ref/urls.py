from __future__ import annotations

from django.urls import include, path

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("scoring.urls")),
]

handler400 = "scoring.guards.errors.bad_request"
handler404 = "scoring.guards.errors.not_found"
handler500 = "scoring.guards.errors.server_error"
