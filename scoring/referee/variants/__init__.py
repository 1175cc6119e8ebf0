"""Every variant, by the key that game files and URLs use.

Adding a variant: write its module beside these and list its class here.
"""

from __future__ import annotations

from scoring.referee.variants.base import Variant
from scoring.referee.variants.cabo_bruxellois import CaboBruxellois
from scoring.referee.variants.dutch import Dutch
from scoring.referee.variants.dutch_toulousain import DutchToulousain
from scoring.referee.variants.fontenaysien import Fontenaysien
from scoring.referee.variants.gabo import Gabo
from scoring.referee.variants.koubo import Koubo
from scoring.referee.variants.tamalou import Tamalou
from scoring.referee.variants.tamoul import Tamoul

VARIANTS: dict[str, type[Variant]] = {
    variant.key: variant
    for variant in (
        Tamalou,
        Gabo,
        Koubo,
        Dutch,
        Tamoul,
        Fontenaysien,
        CaboBruxellois,
        DutchToulousain,
    )
}

__all__ = ["VARIANTS", "Variant"]
