"""WSGI entry point: ``gunicorn tamalou_ref.wsgi``."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tamalou_ref.settings")

application = get_wsgi_application()

from scoring.guards.encoding import Request  # noqa: E402

# A charset in a request's Content-Type leaves its query string unread (scoring/guards/encoding.py).
application.request_class = Request
