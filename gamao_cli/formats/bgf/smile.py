"""A small decoder of Smile, the binary JSON of Jackson (FasterXML's Smile
format specification 1.0), bounded for hostile input.

BGBlitz writes its ``.bgf`` records in it. :func:`decode` turns one Smile
document into plain Python values (dict, list, str, int, float, bool,
None). Only gamao's :class:`SmileError` is raised, with the byte offset of
the token at fault; the bounds are :data:`MAX_DEPTH` levels of nesting,
:data:`MAX_ITEMS` values in all and :data:`MAX_STRING` bytes a string.

>>> decode(b":)\\n\\x03\\xfa\\x82abc\\xc2\\xfb")
{'abc': 1}
>>> decode(b":)\\n\\x03\\xf8\\x40x\\x01\\x23\\xf9")
['x', 'x', True]
"""
from __future__ import annotations

import struct
from decimal import Decimal
from typing import Any

#: The deepest nesting read (BGBlitz nests about eight levels).
MAX_DEPTH = 64
#: The most values one document may hold (a long session holds about 200,000).
MAX_ITEMS = 5_000_000
#: The longest string or binary value read, in bytes.
MAX_STRING = 1 << 20
#: The most bytes of a BigInteger's or BigDecimal's magnitude (BGBlitz writes
#: none; 64 bytes hold any number a record could mean).
MAX_BIG = 64
#: The most entries of a shared-string table (the format's own limit).
SHARED = 1024

HEADER = b":)\n"


class SmileError(ValueError):
    """Bytes that are no Smile document: ``offset`` is where, ``problem`` what."""

    def __init__(self, offset: int, problem: str, **fields: Any):
        super().__init__(f"byte {offset}: {problem}")
        self.offset = offset
        self.problem = problem
        self.fields = fields


class _Decoder:
    __slots__ = ("data", "pos", "names", "values", "share_names", "share_values", "items")

    def __init__(self, data: bytes, share_names: bool, share_values: bool, start: int):
        self.data = data
        self.pos = start
        self.names: list[str] = []
        self.values: list[str] = []
        self.share_names = share_names
        self.share_values = share_values
        self.items = 0

    # -- bytes -------------------------------------------------------------
    def byte(self) -> int:
        pos = self.pos
        if pos >= len(self.data):
            raise SmileError(pos, "cut-short")
        self.pos = pos + 1
        return self.data[pos]

    def take(self, n: int) -> bytes:
        pos = self.pos
        if n > MAX_STRING:
            raise SmileError(pos, "too-long", size=n, limit=MAX_STRING)
        end = pos + n
        if end > len(self.data):
            raise SmileError(pos, "cut-short")
        self.pos = end
        return self.data[pos:end]

    def text(self, n: int) -> str:
        at = self.pos
        raw = self.take(n)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise SmileError(at, "utf8") from None

    def until_end_marker(self) -> str:
        at = self.pos
        end = self.data.find(b"\xfc", at)
        if end < 0:
            raise SmileError(at, "cut-short")
        if end - at > MAX_STRING:
            raise SmileError(at, "too-long", size=end - at, limit=MAX_STRING)
        self.pos = end + 1
        try:
            return self.data[at:end].decode("utf-8")
        except UnicodeDecodeError:
            raise SmileError(at, "utf8") from None

    def vint(self) -> int:
        """An unsigned VInt: 7 bits a byte, the last (its top bit set) 6."""
        value = 0
        for _ in range(11):
            b = self.byte()
            if b & 0x80:
                return (value << 6) | (b & 0x3F)
            value = (value << 7) | b
        raise SmileError(self.pos, "vint")

    def zigzag(self) -> int:
        v = self.vint()
        return (v >> 1) ^ -(v & 1)

    def seven_bit(self, n_bytes: int) -> bytes:
        """``n_bytes`` raw bytes stored 7 bits a byte (left-aligned)."""
        if n_bytes > MAX_STRING:
            raise SmileError(self.pos, "too-long", size=n_bytes, limit=MAX_STRING)
        n_enc = (n_bytes * 8 + 6) // 7
        enc = self.take(n_enc)
        acc = 0
        bits = 0
        out = bytearray()
        for b in enc:
            acc = (acc << 7) | (b & 0x7F)
            bits += 7
            if bits >= 8 and len(out) < n_bytes:
                bits -= 8
                out.append((acc >> bits) & 0xFF)
        return bytes(out[:n_bytes])

    def big(self, at: int) -> bytes:
        """The magnitude of a BigInteger or BigDecimal (at most MAX_BIG bytes)."""
        n = self.vint()
        if n > MAX_BIG:
            raise SmileError(at, "big", size=n, limit=MAX_BIG)
        return self.seven_bit(n)

    def fixed_bits(self, n: int) -> int:
        v = 0
        for b in self.take(n):
            v = (v << 7) | (b & 0x7F)
        return v

    # -- shared strings ----------------------------------------------------
    @staticmethod
    def _remember(table: list[str], s: str) -> None:
        if len(table) >= SHARED:
            table.clear()
        table.append(s)

    def shared(self, table: list[str], index: int, at: int) -> str:
        if index >= len(table):
            raise SmileError(at, "reference", index=index, known=len(table))
        return table[index]

    # -- values --------------------------------------------------------------
    def value(self, depth: int) -> Any:
        at = self.pos
        self.items += 1
        if self.items > MAX_ITEMS:
            raise SmileError(at, "too-many", limit=MAX_ITEMS)
        t = self.byte()
        if t < 0x20:
            if t == 0:
                raise SmileError(at, "token", token=t)
            return self.shared(self.values, t - 1, at)
        if t < 0x40:
            if t == 0x20:
                return ""
            if t == 0x21:
                return None
            if t == 0x22:
                return False
            if t == 0x23:
                return True
            if t == 0x24:
                return self.zigzag()
            if t == 0x25:
                return self.zigzag()
            if t == 0x26:
                return int.from_bytes(self.big(at), "big", signed=True)
            if t == 0x28:
                return struct.unpack(">f", (self.fixed_bits(5) & 0xFFFFFFFF)
                                     .to_bytes(4, "big"))[0]
            if t == 0x29:
                return struct.unpack(">d", (self.fixed_bits(10) & 0xFFFFFFFFFFFFFFFF)
                                     .to_bytes(8, "big"))[0]
            if t == 0x2A:
                scale = self.zigzag()
                unscaled = int.from_bytes(self.big(at), "big", signed=True)
                if abs(scale) > 400:
                    raise SmileError(at, "decimal", scale=scale)
                # (a float, as JSON gives numbers: inf when it is too big for one)
                return float(Decimal(unscaled).scaleb(-scale))
            raise SmileError(at, "token", token=t)
        if t < 0xC0:
            if t < 0x60:
                s = self.text((t & 0x1F) + 1)
            elif t < 0x80:
                s = self.text((t & 0x1F) + 33)
            elif t < 0xA0:
                s = self.text((t & 0x1F) + 2)
            else:
                s = self.text((t & 0x1F) + 34)
            if self.share_values:
                self._remember(self.values, s)
            return s
        if t < 0xE0:
            v = t & 0x1F
            return (v >> 1) ^ -(v & 1)
        if t == 0xE0 or t == 0xE4:
            return self.until_end_marker()
        if t == 0xE8:
            n = self.vint()
            return self.seven_bit(n)
        if 0xEC <= t <= 0xEF:
            index = ((t & 0x03) << 8) | self.byte()
            return self.shared(self.values, index, at)
        if t == 0xF8:
            return self.array(depth + 1, at)
        if t == 0xFA:
            return self.object(depth + 1, at)
        if t == 0xFD:
            n = self.vint()
            return self.take(n)
        raise SmileError(at, "token", token=t)

    def array(self, depth: int, at: int) -> list:
        if depth > MAX_DEPTH:
            raise SmileError(at, "depth", limit=MAX_DEPTH)
        out = []
        data = self.data
        while True:
            if self.pos < len(data) and data[self.pos] == 0xF9:
                self.pos += 1
                return out
            out.append(self.value(depth))

    def key(self) -> str | None:
        at = self.pos
        t = self.byte()
        if t == 0xFB:
            return None
        if t == 0x20:
            return ""
        if 0x30 <= t <= 0x33:
            index = ((t & 0x03) << 8) | self.byte()
            return self.shared(self.names, index, at)
        if t == 0x34:
            s = self.until_end_marker()
            if self.share_names:
                self._remember(self.names, s)
            return s
        if 0x40 <= t <= 0x7F:
            return self.shared(self.names, t & 0x3F, at)
        if 0x80 <= t <= 0xBF:
            s = self.text((t & 0x3F) + 1)
        elif 0xC0 <= t <= 0xF7:
            s = self.text((t & 0x3F) + 2)
        else:
            raise SmileError(at, "key", token=t)
        if self.share_names:
            self._remember(self.names, s)
        return s

    def object(self, depth: int, at: int) -> dict:
        if depth > MAX_DEPTH:
            raise SmileError(at, "depth", limit=MAX_DEPTH)
        out: dict[str, Any] = {}
        while True:
            k = self.key()
            if k is None:
                return out
            out[k] = self.value(depth)


def decode(data: bytes) -> Any:
    """The value of one Smile document (its header, then one value; an end
    marker 0xFF or the end of the bytes ends it)."""
    if data[:3] != HEADER:
        raise SmileError(0, "header")
    if len(data) < 4:
        raise SmileError(3, "cut-short")
    flags = data[3]
    if flags >> 4:
        raise SmileError(3, "version", version=flags >> 4)
    d = _Decoder(data, bool(flags & 0x01), bool(flags & 0x02), 4)
    value = d.value(0)
    if d.pos < len(data) and data[d.pos] != 0xFF:
        raise SmileError(d.pos, "trailing")
    return value
