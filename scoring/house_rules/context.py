"""House rules on the web: what a game's or a saved set's settings change from their variant,
said in a line ("joker −5, K♥ −1, failed call +10"), and the sets this phone keeps."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse

from scoring.house_rules.forms import HouseRulesForm
from scoring.referee.variants import VARIANTS
from scoring.rules.context import differences, rules_context, worked_example
from scoring.store.models import RuleSet
from scoring.web.device import device_rule_sets
from scoring.web.display import qr_svg


def phone_rule_sets(request: HttpRequest) -> list[RuleSet]:
    """The house rules this phone keeps, newest first."""
    keys = device_rule_sets(request)
    found = {rule_set.key: rule_set for rule_set in RuleSet.objects.filter(key__in=keys)}
    return [found[key] for key in keys if key in found]


def rule_set_context(request: HttpRequest, rule_set: RuleSet) -> dict:
    """What a saved set's page shows: the rules page of its variant with its settings, its
    differences, and how to share it (its link and QR code)."""
    variant = VARIANTS[rule_set.variant]
    url = request.build_absolute_uri(reverse("rule_set", args=[rule_set.key]))
    return rules_context(variant, request, rule_set.settings) | {
        "rule_set": rule_set,
        "differences": differences(rule_set.variant, rule_set.settings),
        "share_url": url,
        "share_qr": qr_svg(url),
        "kept": rule_set.key in device_rule_sets(request),
        "start_url": reverse("new_game_variant", args=[rule_set.variant])
        + f"?rules={rule_set.key}",
    }


def sample_round(form: HouseRulesForm) -> dict | None:
    """The variant's worked example scored under the rules the builder shows, once they are
    valid (a preview of what they change)."""
    if not form.is_valid():
        return None
    return worked_example(form.variant(**form.settings), form.settings)
