"""The rules import nothing from Django, so game files and stored games share one referee."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PURE = ["scoring.cards", "scoring.notes", "scoring.variants", "scoring.engine", "scoring.gamefile"]


def test_scoring_modules_import_no_django():
    code = (
        f"import sys; import {', '.join(PURE)}; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"
