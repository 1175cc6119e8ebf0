"""gunicorn's settings for ``make serve`` and for an operator's service (``gunicorn -c
deploy/gunicorn.conf.py tamalou_ref.wsgi``): Django on WSGI, in threaded workers. The door's
limits are nginx's (deploy/nginx.conf); these are the server's own, for a request that reaches
it some other way."""

from __future__ import annotations

import os

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
# Processes (WEB_CONCURRENCY, which gunicorn also reads by itself), each serving its requests
# on a few threads. Python runs one thread of a process at a time, so more processes of
# fewer threads keep short requests from queueing behind a long one (docs/performance.md).
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
worker_class = "gthread"
threads = int(os.environ.get("REQUEST_THREADS", "2"))

# A request line, a header count and a header's size no page needs more of (a phone sends a
# few hundred bytes of each); past them gunicorn answers 400 itself.
limit_request_line = 4094
limit_request_fields = 50
limit_request_field_size = 8190

# A request that takes longer than this has its worker restarted; a restart lets requests
# under way finish first; an idle kept-alive connection is closed after a few seconds.
timeout = 30
graceful_timeout = 20
keepalive = 5

accesslog = "-"
errorlog = "-"
