"""Exit 0 when a PostgreSQL server answers at the URL given, 1 otherwise (used by make test)."""

from __future__ import annotations

import sys

import psycopg


def main(url: str) -> int:
    # Connect to the server's own "postgres" database: the tests create theirs.
    admin = url.rsplit("/", 1)[0] + "/postgres"
    try:
        psycopg.connect(admin, connect_timeout=3).close()
    except psycopg.Error:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
