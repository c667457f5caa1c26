"""What one side of a position gives its IDs, worked out once a side.

A position is two sides (``me``, ``opp``: 26 checker counts each, see
:mod:`gamao_cli.ids.gnubg`). Its Position ID and its XGID are made of what
each side gives on its own: the side's run of Position-ID bits, its
characters of the XGID as the bottom or as the top player, and the points
it holds (for the check that no point is held by both). Consecutive
positions of a game share a side (a play changes the mover's side, and the
opponent's only by a hit), and every action's IDs are written one after the
other, so a side is met again and again: :func:`side_ids` works out what it
gives once, and checks it once, and the IDs of a position are then a few
int operations on two :class:`SideIds`.

The memo is keyed by the side's :mod:`marshal` bytes, not by the side
itself: a tuple of bools or floats is *equal* to a tuple of ints (``True ==
1``, ``1.0 == 1``) and hashes alike, but it is no board (``me[3] must be an
int``); its marshal bytes are other bytes (each element is written with its
exact type, and a subclass of int or of tuple cannot be written at all), so
it never finds a good side's entry. Only tuples are looked up: marshal
writes any object with a buffer (bytes, an array) as its raw bytes, which
two different boards may share. Version 2 of the format writes no
back-references, so the same side always gives the same bytes.
"""
from __future__ import annotations

import marshal
from typing import Callable, NamedTuple, Sequence

from gamao_cli.model.notation import BoundedCache

__all__ = ["SideIds", "side_ids"]

MAX_CHECKERS = 15


class SideIds(NamedTuple):
    """What a good side (checked) gives the IDs of a position."""

    #: its Position-ID bits (for points 1..24 and the bar: a 1 bit a
    #: checker, then a 0 bit), the first bit the lowest, and their number
    run: int
    run_bits: int
    #: the points 1..24 it holds, one bit a point (byte i - 1 of a 24-byte
    #: big-endian number is point i), and the same points as the opponent
    #: numbers them (point i at byte 24 - i): one side's ``held`` AND the
    #: other's ``mirrored`` is 0 when no point is held by both
    held: int
    mirrored: int
    #: its part of the XGID's position field when it sits at the bottom, and
    #: when at the top: 26 big-endian bytes, byte i the count of the bottom
    #: player's point i (1..25, 25 the bar), or 16 times the count of the top
    #: player's point 25 - i (0..24, 0 its bar); the sum of a bottom and a
    #: top part, byte by byte, names the characters (see
    #: :func:`gamao_cli.ids.xgid._position_chars`)
    bottom: int
    top: int


#: checker count -> Position-ID bits of a point, highest first ("0", "10", ...)
_ZERO_ONES = tuple("0" + "1" * n for n in range(MAX_CHECKERS + 1))
#: checker count (a byte) -> 1 when the point is held
_HELD = bytes([0] + [1] * 255)

# (a side is met again within a few positions: a small memo keeps nearly
# every hit; about 350 bytes an entry)
_MEMO: BoundedCache[bytes, SideIds] = BoundedCache(1 << 12)


def _worked_out(b: bytes) -> SideIds:
    """The :class:`SideIds` of a checked side, as bytes (26 counts 0..15)."""
    bits = b[25:0:-1].decode("latin-1").translate(_ZERO_ONES)
    held = b[1:25].translate(_HELD)
    off = b[0]
    # (a number of the bytes reversed is the number of the bytes read the
    # other way round: the mirrored points, the top part; byte 0, the
    # checkers borne off, is in no part)
    return _make((
        int(bits, 2), len(bits),
        int.from_bytes(held, "big"), int.from_bytes(held, "little"),
        int.from_bytes(b, "big") - (off << 200), (int.from_bytes(b, "little") - off) << 4,
    ))


_make = SideIds._make

#: The type codes of 26 ints in the marshal bytes of a tuple (version 2: a
#: 5-byte head, then for each element its code, 'i' for an int, not a bool
#: nor of a subclass, of 32 bits, and its 4 bytes).
_INT_CODES = b"i" * 26
_INTS_TUPLE_BYTES = 5 + 5 * 26


def side_ids(side: Sequence[int], name: str,
             check: Callable[[Sequence[int], str], tuple[int, ...]]) -> SideIds:
    """The :class:`SideIds` of ``side`` once ``check(side, name)`` (the
    board check of :mod:`gamao_cli.ids.gnubg`, which raises ``ValueError``
    saying what is wrong) has found it good; from the memo when a side with
    the same marshal bytes was found good before.

    A new side whose marshal bytes say it is 26 ints (a code ``i`` every
    5 bytes from byte 5, and no more bytes: each of the 26 elements is an
    int of the ``i`` form) needs no ``check``: its counts are good when they
    are bytes (0..255) adding up to 15 at most, which is what ``check``
    accepts of a tuple of ints."""
    if side.__class__ is not tuple:
        # (a list, bytes, an array: the memo holds tuples only, whose bytes
        # say what each element is; an array's are its raw buffer)
        return _worked_out(bytes(check(side, name)))
    try:
        key = marshal.dumps(side, 2)
    except ValueError:   # an element marshal cannot write: no int; the check says so
        return _worked_out(bytes(check(side, name)))
    found = _MEMO.data.get(key)
    if found is None:
        counts = None
        if len(key) == _INTS_TUPLE_BYTES and key[5::5] == _INT_CODES:
            try:
                counts = bytes(side)
            except (TypeError, ValueError):   # a count below 0 or above 255
                pass
            else:
                if sum(counts) > MAX_CHECKERS:
                    counts = None
        if counts is None:
            counts = bytes(check(side, name))
        found = _MEMO.put(key, _worked_out(counts))
    return found


def clear() -> None:
    """Empty the memo (for tests)."""
    _MEMO.clear()
