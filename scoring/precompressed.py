"""A page compressed once and served to many, each copy with its own CSRF token.

The page is cut at the token's places and each piece is deflated on its own, ending on a
full flush (byte-aligned, no reference to earlier data), so pieces can be joined around the
deflated token of each request. With a gzip header, a final empty block and the CRC-32 and
length of the whole text, the result is one ordinary gzip member that any browser reads.
Per request this costs deflating a few dozen bytes and a CRC over the page, instead of
compressing the whole page again.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

LEVEL = 6
GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # deflate, no name, no time, unknown OS
FINAL_BLOCK = b"\x03\x00"  # an empty last block (fixed Huffman codes)


def deflate(data: bytes) -> bytes:
    """Raw deflate that stands alone: a full flush, not the end of a stream."""
    compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
    return compressor.compress(data) + compressor.flush(zlib.Z_FULL_FLUSH)


@dataclass(frozen=True)
class PrecompressedPage:
    parts: tuple[bytes, ...]  # the page's text between the holes
    deflated: tuple[bytes, ...]  # each part, deflated

    @classmethod
    def make(cls, page: bytes, hole: bytes) -> PrecompressedPage:
        parts = tuple(page.split(hole))
        return cls(parts, tuple(deflate(part) for part in parts))

    def plain(self, token: bytes) -> bytes:
        return token.join(self.parts)

    def gzip(self, token: bytes) -> bytes:
        crc, size = 0, 0
        for index, part in enumerate(self.parts):
            if index:
                crc = zlib.crc32(token, crc)
                size += len(token)
            crc = zlib.crc32(part, crc)
            size += len(part)
        body = deflate(token).join(self.deflated)
        return GZIP_HEADER + body + FINAL_BLOCK + struct.pack("<II", crc, size & 0xFFFFFFFF)
