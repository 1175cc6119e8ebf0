"""A phone without JavaScript, for tests and the load run that drive a live server."""

from __future__ import annotations

import re
import urllib.error
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar


class Phone:
    """A browser without JavaScript: cookies, the CSRF token of the last page, plain forms."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(CookieJar()), NoRedirect()
        )
        self.token = ""

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=30) as response:
            page = response.read().decode()
        self.token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        return page

    def post(self, path: str, data: dict) -> tuple[int, str]:
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": self.token}).encode()
        try:
            with self.opener.open(self.base + path, body, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer to look at (302 after a save), not a page to follow."""

    def redirect_request(self, *args, **kwargs):
        return None
