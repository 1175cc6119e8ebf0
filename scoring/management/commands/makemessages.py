"""``makemessages`` that also finds the referee's plural templates (``plural_noop``)."""

from __future__ import annotations

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=plural_noop:1,2"]
