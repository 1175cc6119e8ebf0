"""Every variant, by the key that game files and URLs use.

Adding a variant: write its module beside these and list its class here.
"""

from __future__ import annotations

from scoring.variants.base import Variant
from scoring.variants.cabo_bruxellois import CaboBruxellois
from scoring.variants.dutch import Dutch
from scoring.variants.dutch_toulousain import DutchToulousain
from scoring.variants.fontenaysien import Fontenaysien
from scoring.variants.gabo import Gabo
from scoring.variants.koubo import Koubo
from scoring.variants.tamalou import Tamalou
from scoring.variants.tamoul import Tamoul

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
