"""Draw the app's icons (PNG for phones, SVG for browsers) without an imaging library.

    .venv/bin/python scripts/make_icons.py    # writes static/icons/

A white playing card with a red heart on the app's green. "any" icons have rounded corners
and a transparent outside; the maskable icon and Apple's touch icon fill the square (the
phone cuts its own shape), with the card inside the safe circle (80 % of the size).
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "static" / "icons"
GREEN = (11, 110, 79)  # --accent of the light theme
WHITE = (255, 255, 255)
RED = (198, 40, 40)  # --red-suit
SAMPLES = 3  # per axis: 9 samples a pixel smooth the edges


def png(width: int, height: int, rows: list[bytes]) -> bytes:
    """An RGBA PNG from rows of width × 4 bytes."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    raw = b"".join(b"\x00" + row for row in rows)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def in_rounded_box(x: float, y: float, half_w: float, half_h: float, radius: float) -> bool:
    """Whether (x, y), relative to the box's centre, is inside the rounded box."""
    dx, dy = abs(x) - (half_w - radius), abs(y) - (half_h - radius)
    if dx <= 0 or dy <= 0:
        return abs(x) <= half_w and abs(y) <= half_h
    return dx * dx + dy * dy <= radius * radius


def in_heart(x: float, y: float) -> bool:
    """The heart curve (x² + y² − 1)³ ≤ x² y³, point up = y up."""
    a = x * x + y * y - 1
    return a * a * a - x * x * y * y * y <= 0


def colour_at(u: float, v: float, full_bleed: bool) -> tuple[int, int, int, int] | None:
    """The colour at (u, v) in [-1, 1]² (v down), or None outside the icon."""
    if not full_bleed and not in_rounded_box(u, v, 1, 1, 0.36):
        return None
    scale = 0.78 if full_bleed else 1.0  # the card stays in the maskable safe circle
    cu, cv = u / scale, v / scale
    if in_rounded_box(cu, cv, 0.5, 0.7, 0.12):
        hx, hy = cu / 0.3, -(cv + 0.05) / 0.3
        return (*RED, 255) if in_heart(hx, hy) else (*WHITE, 255)
    return (*GREEN, 255)


def draw(size: int, full_bleed: bool) -> bytes:
    rows = []
    step = 1 / SAMPLES
    for py in range(size):
        row = bytearray()
        for px in range(size):
            totals = [0, 0, 0, 0]
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    u = (px + (sx + 0.5) * step) / size * 2 - 1
                    v = (py + (sy + 0.5) * step) / size * 2 - 1
                    colour = colour_at(u, v, full_bleed)
                    if colour is not None:
                        for i in range(3):
                            totals[i] += colour[i] * colour[3]
                        totals[3] += colour[3]
            alpha = totals[3] / (SAMPLES * SAMPLES)
            if totals[3]:
                row += bytes(round(totals[i] / totals[3]) for i in range(3))
            else:
                row += b"\x00\x00\x00"
            row.append(round(alpha))
        rows.append(bytes(row))
    return png(size, size, rows)


SVG = f"""<svg xmlns="http://www.w3.org/2000/svg" viewBox="-100 -100 200 200">
<rect x="-100" y="-100" width="200" height="200" rx="36" fill="rgb{GREEN}"/>
<rect x="-50" y="-70" width="100" height="140" rx="12" fill="rgb{WHITE}"/>
<path fill="rgb{RED}"
 d="M0 -5 C-8 -22 -31 -21 -31 -2 C-31 12 -14 22 0 35 C14 22 31 12 31 -2 C31 -21 8 -22 0 -5 Z"/>
</svg>
"""


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, full_bleed in (
        ("icon-192.png", 192, False),
        ("icon-512.png", 512, False),
        ("icon-maskable-512.png", 512, True),
        ("apple-touch-icon.png", 180, True),
    ):
        (OUT / name).write_bytes(draw(size, full_bleed))
    (OUT / "icon.svg").write_text(SVG)


if __name__ == "__main__":
    main()
