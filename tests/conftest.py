from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

# Property tests run a few examples each by default, enough to catch a broken invariant in
# every run; HYPOTHESIS_PROFILE=thorough runs many more (before a release, after a change to
# the referee). The examples that once failed are replayed first either way.
settings.register_profile(
    "quick",
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
settings.register_profile("thorough", settings.get_profile("quick"), max_examples=300)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "quick"))

# Playwright's sync API runs an event loop in the test thread; the test's own ORM calls are
# still synchronous, so Django's guard against async contexts does not apply to them.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def client(client):
    """Most page tests read English; French (the default) has tests of its own."""
    client.cookies["django_language"] = "en"
    return client
