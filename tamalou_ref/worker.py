"""The gunicorn worker ``make serve`` runs: uvicorn's (``uvicorn_worker``), set the way its
documentation says, by ``CONFIG_KWARGS``.

HTTP/1.1 is parsed by h11, which refuses a request whose head (request line and headers)
passes 16 KB (h11's ``max_incomplete_event_size``) with a 400 and closes the connection.
uvicorn's other parser, httptools, which it takes when installed, has no limit: a 48 MB
header was read whole, in 2.1 s of the worker's event loop (16 MB: 0.24 s; the time grows
faster than the size), and handed to the application; at 87 MB a worker passed gunicorn's
timeout and was killed with every request it served (issue #34).
"""

from __future__ import annotations

from uvicorn_worker import UvicornWorker


class Worker(UvicornWorker):
    CONFIG_KWARGS = {"loop": "auto", "http": "h11"}
