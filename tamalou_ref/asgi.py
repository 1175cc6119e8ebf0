"""ASGI entry point, for the live streams (``scoring.live.push``): ``make run`` (uvicorn) and
``make serve`` (gunicorn with uvicorn workers)."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tamalou_ref.settings")
# Under ASGI each request's synchronous code runs in a thread of its own: a connection kept
# for the next request would stay with a thread that is gone. Django's advice: close them.
os.environ.setdefault("CONN_MAX_AGE", "0")

django_application = get_asgi_application()  # sets Django up: the models can be imported now

from scoring.guards.bodies import limit_bodies  # noqa: E402
from scoring.live.stream import with_streams  # noqa: E402

# The sheets' live streams are served beside Django, on the event loop (scoring/live/stream.py);
# no request body past MAX_REQUEST_BYTES reaches Django (scoring/guards/bodies.py). A stream
# reads no body, and sees its phone go by what the server says next: it stays outside the limit.
application = with_streams(limit_bodies(django_application))
