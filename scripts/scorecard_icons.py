"""Draw the score sheet's app icons (issue 30): src/eights/web/static/icons/scorecard.svg and its PNGs.

The icon is an 8 made of two gold rings on the table's green, inside the middle 60% so that a phone's mask
(circle, squircle) never cuts it. The PNGs are drawn here pixel by pixel (standard library only, 4x4
samples a pixel for smooth edges), from the same figures as the SVG. The icons are the project's own work,
under the project's licence. Run ``python scripts/scorecard_icons.py`` after changing a figure.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

ICONS = Path(__file__).resolve().parent.parent / "src" / "eights" / "web" / "static" / "icons"
GREEN = (0x1A, 0x4A, 0x2E)
GOLD = (0xFF, 0xD1, 0x66)
#: The rings on a 100 x 100 square: (centre x, centre y, radius of the ring's middle), and its width.
RINGS = ((50.0, 34.0, 12.5), (50.0, 63.0, 16.0))
WIDTH = 8.0
SAMPLES = 4


def colour(rgb: tuple[int, int, int]) -> str:
    return "#" + "".join(f"{part:02x}" for part in rgb)


def svg() -> str:
    rings = "".join(
        f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="none" stroke="{colour(GOLD)}" stroke-width="{WIDTH:g}"/>'
        for x, y, r in RINGS
    )
    square = f'<rect width="100" height="100" fill="{colour(GREEN)}"/>'
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{square}{rings}</svg>\n'


def gold_share(px: int, py: int, size: int) -> float:
    """How much of pixel (px, py) the rings cover, 0 to 1."""
    inside = 0
    for sy in range(SAMPLES):
        for sx in range(SAMPLES):
            x = (px + (sx + 0.5) / SAMPLES) * 100 / size
            y = (py + (sy + 0.5) / SAMPLES) * 100 / size
            if any(abs(((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 - r) <= WIDTH / 2 for cx, cy, r in RINGS):
                inside += 1
    return inside / SAMPLES**2


def png(size: int) -> bytes:
    rows = bytearray()
    for py in range(size):
        rows.append(0)  # no filter
        for px in range(size):
            share = gold_share(px, py, size)
            rows.extend(round(g * (1 - share) + o * share) for g, o in zip(GREEN, GOLD, strict=True))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(rows), 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    (ICONS / "scorecard.svg").write_text(svg())
    for size in (192, 512):
        (ICONS / f"scorecard-{size}.png").write_bytes(png(size))


if __name__ == "__main__":
    main()
