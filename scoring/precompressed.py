"""A page compressed once and served to many, each copy with its own CSRF token.

The page is cut at the token's places and each piece is deflated on its own, ending on a
full flush (byte-aligned, no reference to earlier data), so pieces can be joined around the
deflated token of each request. With a gzip header, a final empty block and the CRC-32 and
length of the whole text, the result is one ordinary gzip member that any browser reads.
Per request this costs deflating a few dozen bytes and a CRC over the page, instead of
compressing the whole page again.

When every token has the same length (Django's CSRF tokens do), each piece may still refer
back to the text of the pieces before it (its last 8 KiB), as a page compressed whole would:
it is deflated with that text as its dictionary, a token's place in it filled with NUL bytes
that no text of the page matches. The browser's window then holds the same bytes at the same
distances, tokens aside, and nothing refers into a token. A token of another length gets
the page compressed afresh.
"""

from __future__ import annotations

import gzip
import struct
import zlib
from dataclasses import dataclass

# Level 6 (zlib's default) and the last 8 KiB before a piece as its dictionary: a 30-round,
# 8-player sheet 145 bytes heavier compressed (8.6 KB) than at level 9 with 32 KiB, made in
# two thirds of the time (each of its 7 pieces set a 32 KiB dictionary).
LEVEL = 6
DICTIONARY = 1 << 13  # how much of the text before a piece it may refer to
GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # deflate, no name, no time, unknown OS
FINAL_BLOCK = b"\x03\x00"  # an empty last block (fixed Huffman codes)


def deflate(data: bytes, before: bytes = b"") -> bytes:
    """Raw deflate that stands alone: a full flush, not the end of a stream. It may refer to
    ``before``, the text the reader has just inflated (its last ``DICTIONARY`` bytes)."""
    if before:
        dictionary = before[-DICTIONARY:]
        compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS, zdict=dictionary)
    else:
        compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
    return compressor.compress(data) + compressor.flush(zlib.Z_FULL_FLUSH)


@dataclass(frozen=True)
class PrecompressedPage:
    parts: tuple[bytes, ...]  # the page's text between the holes
    deflated: tuple[bytes, ...]  # each part, deflated
    token_length: int | None = None  # the tokens the parts were deflated for, if all alike

    @classmethod
    def make(cls, page: bytes, hole: bytes, token_length: int | None = None) -> PrecompressedPage:
        parts = tuple(page.split(hole))
        if token_length is None or b"\0" in page:
            return cls(parts, tuple(deflate(part) for part in parts))
        blank = b"\0" * token_length  # matches no text of a page
        deflated = tuple(
            deflate(part, blank.join(parts[:index])[-DICTIONARY:] + (blank if index else b""))
            for index, part in enumerate(parts)
        )
        return cls(parts, deflated, token_length)

    def plain(self, token: bytes) -> bytes:
        return token.join(self.parts)

    def gzip(self, token: bytes) -> bytes:
        if self.token_length is not None and len(token) != self.token_length:
            return gzip.compress(self.plain(token), LEVEL)
        crc, size = 0, 0
        for index, part in enumerate(self.parts):
            if index:
                crc = zlib.crc32(token, crc)
                size += len(token)
            crc = zlib.crc32(part, crc)
            size += len(part)
        body = deflate(token).join(self.deflated)
        return GZIP_HEADER + body + FINAL_BLOCK + struct.pack("<II", crc, size & 0xFFFFFFFF)
