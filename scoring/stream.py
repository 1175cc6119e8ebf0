"""The live stream of a sheet's link (Server-Sent Events), ``scoring.push``'s HTTP side."""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils.translation import get_language, override
from django.views.decorators.http import require_safe

from scoring import push
from scoring.httpcache import etag_of
from scoring.limits import client_ip
from scoring.models import Game


async def live_stream(request: HttpRequest, link: str, key: str) -> HttpResponse:
    """The ETags of the game's live part (``link``'s), the one now and then each new one."""
    if not isinstance(request, ASGIRequest):
        # A WSGI server would read the endless stream whole before sending anything: 204
        # tells the browser not to try again, and the phone keeps polling.
        return HttpResponse(status=204)
    version_by_key = sync_to_async(Game.objects.version_by_key)
    found = await version_by_key(link, key)
    if found is None:
        raise Http404
    game_id, edit_key, state = found
    client = client_ip(request)
    if not push.hub.admit(client):
        return HttpResponse(status=429, headers={"Retry-After": "60"})
    await push.listening()
    watch = push.hub.watch(game_id)
    watch.tell(None)  # read the state once more now that no change can pass unheard
    language = get_language()

    def etag(state: str) -> str:
        with override(language):
            return etag_of(Game.version_of(edit_key, state), link)

    async def state_now() -> str | None:
        row = await version_by_key(link, key)
        return row[2] if row else None

    response = StreamingHttpResponse(
        push.events(watch, etag, state_now, client, state), content_type="text/event-stream"
    )
    response["Cache-Control"] = "private, no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    # Never compressed: GZipMiddleware would hold the events back in its compressor.
    request.META.pop("HTTP_ACCEPT_ENCODING", None)
    return response


@require_safe
async def edit_stream(request: HttpRequest, key: str) -> HttpResponse:
    """Each new ETag of ``views.edit_live`` as it happens."""
    return await live_stream(request, "edit", key)


@require_safe
async def share_stream(request: HttpRequest, key: str) -> HttpResponse:
    """Each new ETag of ``views.share_live`` as it happens."""
    return await live_stream(request, "share", key)
