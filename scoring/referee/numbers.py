"""The one way a number typed by a person is read, everywhere (round forms, settings).

Digits are the ASCII digits 0–9 only: a phone's keypad types them, and a number that
looks the same in two places must mean the same in both (``int()`` would take "²" or
Arabic-Indic digits in one place and another parser refuse them in the next). A sign
(+, - or the minus sign −) may lead; ``.`` or ``,`` separates decimals (4,5 = 4.5).
"""

from __future__ import annotations

import re
from fractions import Fraction

NUMBER = re.compile(r"[+\-−]?[0-9]{1,12}(?:[.,][0-9]{1,6})?")


class NotANumber(ValueError):
    """Text that is not a number as people type them."""


def parse_number(text: str) -> Fraction:
    """``"4,5"`` → 9/2; anything else than a plain number raises NotANumber."""
    text = (text or "").strip()
    if not NUMBER.fullmatch(text):
        raise NotANumber(text)
    return Fraction(text.replace(",", ".").replace("−", "-"))
