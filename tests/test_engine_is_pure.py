"""The referee imports nothing from Django, so game files and stored games share one referee."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.no_database

ROOT = Path(__file__).resolve().parent.parent


def test_every_referee_module_imports_no_django():
    code = (
        "import importlib, pkgutil, sys, scoring.referee as r\n"
        "for m in pkgutil.walk_packages(r.__path__, 'scoring.referee.'):\n"
        "    importlib.import_module(m.name)\n"
        "print(len([m for m in sys.modules if m.startswith('scoring.referee.')]))\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    imported, django = done.stdout.split("\n")[:2]
    assert int(imported) >= 14  # cards, notes, engine, gamefile, the variants
    assert django == "[]"
