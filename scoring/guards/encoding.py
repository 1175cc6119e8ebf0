"""Request bodies are read as UTF-8 only, as every page of the app is written, and only up to
MAX_REQUEST_BYTES: a longer one is refused (413) from its Content-Length, before it is read
(Django's own limit, DATA_UPLOAD_MAX_MEMORY_SIZE, leaves out uploaded files).

A browser posts a form in its page's charset and names none in a multipart body. Django
refuses another charset for urlencoded bodies, but decodes multipart fields with whatever
charset the request names: UTF-7 or unicode_escape turn plain bytes into lone surrogates,
which no page can encode (a 500 wherever the value is shown again) and no database stores.
"""

from __future__ import annotations

import codecs

from django.conf import settings
from django.core.exceptions import BadRequest, RequestDataTooBig
from django.core.handlers.wsgi import WSGIRequest

from scoring.guards.errors import bad_request


def too_large(length: str | None, limit: int) -> bool:
    """Whether a request's Content-Length says more than ``limit`` bytes (a length that is
    not a number is the server's to refuse, not this)."""
    if length is None or not (length.isascii() and length.isdigit()):
        return False
    return len(length) > 15 or int(length) > limit


class Utf8Bodies:
    """Refuses (400) a request whose body names another charset than UTF-8, and (413) one
    longer than MAX_REQUEST_BYTES, with the app's page at once: raised, with DEBUG on Django's
    debug page would read the body to show it, and fail again."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        if too_large(request.META.get("CONTENT_LENGTH"), settings.MAX_REQUEST_BYTES):
            return bad_request(request, RequestDataTooBig("Request body over MAX_REQUEST_BYTES"))
        charset = request.content_params.get("charset")
        if charset:
            try:
                name = codecs.lookup(charset).name
            except LookupError:
                name = "utf-8"  # Django ignores a charset it does not know: UTF-8 it is
            if name != "utf-8":
                return bad_request(request, BadRequest("Request bodies must be UTF-8 encoded."))
        return self.get_response(request)


class Request(WSGIRequest):
    """Django's request, except that a charset named by the Content-Type does not parse the
    query string as the request is made. Django's ``encoding`` setter asks ``hasattr(self,
    "GET")``, which reads the query string: one of more than DATA_UPLOAD_MAX_NUMBER_FIELDS
    fields raised TooManyFieldsSent before any middleware ran, and the server answered 500
    (`make probe`'s fuzz: a post with ``charset=latin-1`` to ``/rules/?x=1&x=1&…``). Here the
    query is parsed when it is read, in the view, where the same error is Django's 400, and
    ``Utf8Bodies`` refuses the charset (400) before that."""

    @property
    def encoding(self):
        return self._encoding

    @encoding.setter
    def encoding(self, value) -> None:
        self._encoding = value
        self.__dict__.pop("GET", None)  # read again in that charset, if it was read at all
        self.__dict__.pop("_post", None)
