"""French typography in the French catalogue, applied mechanically (``make messages`` runs it):
a narrow no-break space (U+202F) before ``;``, ``:``, ``!`` and ``?`` used as punctuation, and
inside « », so that a line never starts with ";" on a narrow phone.

It rewrites the translations (``msgstr`` lines) of ``locale/fr/LC_MESSAGES/django.po`` in
place, never the English ``msgid``; ``tests/web/test_typography.py`` checks that every
translation complies. Done in the catalogue rather than by a filter on pages: every French
text comes from it (pages, form errors, messages, the manifest, what scripts show), so
nothing has to remember to apply a filter.

    python scripts/french_typography.py [locale/fr/LC_MESSAGES/django.po]
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

NNBSP = "\u202f"
CATALOGUE = Path(__file__).resolve().parent.parent / "locale/fr/LC_MESSAGES/django.po"

# ; : ! ? as punctuation: followed by a space, a closing quote or the end of the text (not
# "2:00", "https://" or "?card="), after a word, a number, a placeholder or a closing sign.
PUNCTUATION = re.compile(r"(?<=[^\s\"])[ \u00a0\u202f]*([;:!?])(?=[ \u00a0)»]|\\n|\"$|$)")
OPENING = re.compile(r"«[ \u00a0\u202f]*")
CLOSING = re.compile(r"[ \u00a0\u202f]*»")


def typeset(text: str) -> str:
    """French text with narrow no-break spaces where French typography puts them."""
    text = PUNCTUATION.sub(NNBSP + r"\1", text)
    text = OPENING.sub("«" + NNBSP, text)
    return CLOSING.sub(NNBSP + "»", text)


def fix_catalogue(source: str) -> str:
    lines = source.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("msgstr"):
            keyword, _, quoted = line.partition(" ")
            lines[i] = f"{keyword} {typeset(quoted)}"
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    path = Path(argv[1]) if len(argv) > 1 else CATALOGUE
    source = path.read_text(encoding="utf-8")
    fixed = fix_catalogue(source)
    if fixed != source:
        path.write_text(fixed, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
