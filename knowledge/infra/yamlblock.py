"""YAML in the block style the dumper writes (``yaml.safe_dump``: what ``capadvisor import`` and the
scenario editor save, and every estate of thousands of workload groups), read line by line.

Every line is ``[indent][- ]...key: value``, ``[indent][- ]...key:`` (a block below, or null) or
``[indent]- ... value``, a value being a plain scalar of one line, a single-quoted one, ``[]`` or
``{}``. :func:`read_block` builds the same data the loader builds from such a text (mappings that
remember duplicate keys with their lines, scalars resolved and constructed by the loader itself),
and raises :class:`NotBlock` for any other text (comments, blank lines, flow collections, anchors,
tags, block scalars, scalars over several lines, double quotes, odd indentation, deep nesting):
the loader reads those, and says what is wrong with a broken file. Reading the composed nodes of
libyaml cost two thirds of the time to read an estate of 10,000 workload groups.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any


class NotBlock(Exception):
    """A text :func:`read_block` leaves to the loader."""


#: characters of a plain scalar (no control characters, no line breaks or byte-order marks,
#: no ``#`` or ``:``): ``_MID`` with the space, ``_END`` without it, ``_FIRST`` without indicators
_BAD = "\x00-\x1f\x7f-\x9f\ud800-\udfff\ufeff\ufffe\uffff\u2028\u2029"
_MID = f"[^{_BAD}#:]"
_END = f"[^{_BAD} #:]"
_FIRST = f"[^{_BAD} #:\\-?,\\[\\]{{}}&*!|>'\"%@`<=]"
_PLAIN = f"(?:{_FIRST}|-(?={_END}))(?:(?:{_MID}|:(?={_END}))*{_END})?"
_KEY = f"{_FIRST}(?:{_MID}*{_END})?"
_QUOTED = f"'(?:[^{_BAD}']|'')*'"
_VALUE = f"{_PLAIN}|{_QUOTED}|\\[\\]|\\{{\\}}"
_LINE = re.compile(f"( *)((?:- )*)(?:({_KEY}|{_QUOTED}):(?: ({_VALUE}))?|({_VALUE}))\\Z")
#: deeper documents are left to the loader; longer keys too (YAML limits a simple key's length)
_DEPTH, _KEY_CHARS = 64, 200
_ITEM, _ENTRY, _SCALAR = 0, 1, 2


def read_block(text: str, plain: Callable[[str], Any], mapping: Callable[[], Any]) -> Any:
    """The data of ``text`` (see the module doc); ``plain`` resolves and constructs a plain scalar
    as the loader does (``'3'`` -> 3, ``'no'`` -> False, ``''`` -> None), ``mapping`` makes an
    empty mapping as the loader does (with a ``duplicates`` list). Raises :class:`NotBlock`."""
    tokens = _tokens(text)
    if not tokens:
        raise NotBlock("empty")
    reader = _Reader(tokens, plain, mapping)
    data, pos = reader.node(0, 0)
    if pos != len(tokens):
        raise NotBlock(f"line {tokens[pos][4]}")
    return data


def _tokens(text: str) -> list[tuple]:
    """(column, kind, key, value, line) per ``- `` (an item), ``key[: value]`` (an entry) and value
    after ``- `` (a scalar) of the text, in order."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    tokens: list[tuple] = []
    add, match = tokens.append, _LINE.match
    for number, line in enumerate(lines, 1):
        m = match(line)
        if m is None:
            raise NotBlock(f"line {number}")
        indent, dashes, key, value, item = m.groups()
        column = len(indent)
        for _ in range(len(dashes) // 2):
            add((column, _ITEM, None, None, number))
            column += 2
        if key is not None:
            if len(key) > _KEY_CHARS:
                raise NotBlock(f"line {number}")
            add((column, _ENTRY, key, value, number))
        elif dashes:
            add((column, _SCALAR, None, item, number))
        else:
            raise NotBlock(f"line {number}")
    return tokens


class _Reader:
    """The nodes of a token list: a mapping is its entries at one column, a sequence its items."""

    def __init__(self, tokens: list[tuple], plain: Callable[[str], Any], mapping: Callable[[], Any]) -> None:
        self.tokens, self.plain, self.new_mapping = tokens, plain, mapping

    def scalar(self, text: str) -> Any:
        if text[0] == "'":
            return text[1:-1].replace("''", "'")
        if text == "[]":
            return []
        if text == "{}":
            return self.new_mapping()
        return self.plain(text)

    def node(self, pos: int, depth: int) -> tuple[Any, int]:
        """The node starting at token ``pos`` and the position after it."""
        if depth > _DEPTH:
            raise NotBlock("depth")
        column, kind, _, value, _ = self.tokens[pos]
        if kind == _SCALAR:
            return self.scalar(value), pos + 1
        if kind == _ITEM:
            return self.sequence(pos, column, depth)
        return self.mapping(pos, column, depth)

    def sequence(self, pos: int, column: int, depth: int) -> tuple[list, int]:
        tokens, n, items = self.tokens, len(self.tokens), []
        while pos < n and tokens[pos][0] == column and tokens[pos][1] == _ITEM:
            item, pos = self.node(pos + 1, depth + 1)  # the item's node starts on the same line
            items.append(item)
        if pos < n and tokens[pos][0] > column:
            raise NotBlock(f"line {tokens[pos][4]}")
        return items, pos

    def mapping(self, pos: int, column: int, depth: int) -> tuple[Any, int]:
        tokens, n, data = self.tokens, len(self.tokens), self.new_mapping()
        while pos < n and tokens[pos][0] == column and tokens[pos][1] == _ENTRY:
            _, _, text, value, line = tokens[pos]
            key = self.scalar(text)
            if key in data:
                data.duplicates.append((key, line))
            pos += 1
            if value is not None:
                data[key] = self.scalar(value)
            elif pos < n and tokens[pos][0] > column:  # a block below the key
                data[key], pos = self.node(pos, depth + 1)
            elif pos < n and tokens[pos][0] == column and tokens[pos][1] == _ITEM:  # a sequence at the key's column
                data[key], pos = self.sequence(pos, column, depth + 1)
            else:
                data[key] = self.plain("")
        if pos < n and tokens[pos][0] >= column:
            raise NotBlock(f"line {tokens[pos][4]}")
        return data, pos
