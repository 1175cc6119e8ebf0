"""The app as ``make run`` (uvicorn) and ``make serve`` (gunicorn with uvicorn workers) serve it.

The live streams (``scoring.live.stream``) are held on the event loop, thousands to a process;
every other request goes to Django as WSGI, on a fixed pool of ``REQUEST_THREADS`` threads
(a2wsgi). Served as ASGI, Django would hand each request to a thread of its own and back at
each middleware that is not async (whitenoise's, the rate limits'): an evening of 12 tables
cost 105 ms of server CPU per round that way, 85 ms this way (``make bench``). Each thread
keeps its database connection for the next request (``CONN_MAX_AGE``).
"""

from __future__ import annotations

import os

from a2wsgi import WSGIMiddleware
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tamalou_ref.settings")

django_application = get_wsgi_application()  # sets Django up: the models can be imported now

from django.conf import settings  # noqa: E402

from scoring.guards.bodies import limit_bodies  # noqa: E402
from scoring.guards.encoding import Request  # noqa: E402
from scoring.guards.shares import noting_cpu, share_time  # noqa: E402
from scoring.live.stream import with_streams  # noqa: E402

# A charset in a request's Content-Type leaves its query string unread (scoring/guards/encoding.py).
django_application.request_class = Request

# No request body past MAX_REQUEST_BYTES reaches Django (scoring/guards/bodies.py); then each
# client has its share of the process's time (scoring/guards/shares.py), its body read already.
# A stream reads no body, and sees its phone go by what the server says next: it stays outside
# the limit, and has its own counts.
pages = WSGIMiddleware(noting_cpu(django_application), workers=settings.REQUEST_THREADS)
application = with_streams(limit_bodies(share_time(pages)))
