"""Sum up a finished ``mutmut run``: killed, survived, the kill rate, and every survivor.

``make mutate`` runs it after mutmut. It exits non-zero when the kill rate is under ``--min``
(percent) or when some mutant was not checked (an interrupted run). A mutant that timed out
counts as killed (the tests noticed it); one that no test reaches counts as a survivor.
Why each remaining survivor cannot change behaviour is written in the README
("Mutation testing").
"""

from __future__ import annotations

import argparse
import collections
import subprocess
import sys
from pathlib import Path

KILLED = {"killed", "timeout", "caught by type check", "segfault"}
UNCHECKED = {"not checked", "check was interrupted by user", "skipped"}


def results(mutmut: str) -> dict[str, str]:
    """mutant name → status, as ``mutmut results --all true`` prints them."""
    out = subprocess.run(
        [mutmut, "results", "--all", "true"], capture_output=True, text=True, check=True
    ).stdout
    found = {}
    for line in out.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and name:
            found[name] = status
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--min", type=float, default=95.0, help="lowest kill rate, in percent")
    parser.add_argument("--mutmut", default=str(Path(sys.executable).with_name("mutmut")))
    args = parser.parse_args()

    found = results(args.mutmut)
    counts = collections.Counter(found.values())
    unchecked = sorted(name for name, status in found.items() if status in UNCHECKED)
    survivors = sorted(
        (name, status)
        for name, status in found.items()
        if status not in KILLED and status not in UNCHECKED
    )
    killed = sum(n for status, n in counts.items() if status in KILLED)
    total = len(found)
    rate = 100 * killed / total if total else 0.0

    for name, status in survivors:
        print(f"  {status:10} {name}")
    print(", ".join(f"{status}: {n}" for status, n in sorted(counts.items())))
    print(f"{total} mutants, {killed} killed, {len(survivors)} survived: {rate:.1f} % killed")
    if unchecked:
        print(f"{len(unchecked)} mutants were not checked: run `make mutate` again.")
        return 1
    if not total or rate < args.min:
        print(f"The kill rate is under {args.min:g} %.")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
