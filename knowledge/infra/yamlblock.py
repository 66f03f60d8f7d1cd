"""YAML in the block style the dumper writes (``yaml.safe_dump``: what ``capadvisor import`` and the
scenario editor save, and every estate of thousands of workload groups), read line by line.

Every line is ``[indent][- ]...key: value``, ``[indent][- ]...key:`` (a block below, or null) or
``[indent]- ... value``, a value being a plain scalar of one line, a single-quoted one, ``[]`` or
``{}``. :func:`read_block` builds the same data the loader builds from such a text (mappings that
remember duplicate keys with their lines, scalars resolved and constructed by the loader itself),
and raises :class:`NotBlock` for any other text (comments, blank lines, flow collections, anchors,
tags, block scalars, scalars over several lines, double quotes, odd indentation, deep nesting):
the loader reads those, and says what is wrong with a broken file. Reading the composed nodes of
libyaml cost two thirds of the time to read an estate of 10,000 workload groups; here each distinct
line is matched once (an estate repeats most of its lines) and the lines are built in one pass.
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
#: a line's value: a block below (or null), a new empty list or mapping; a line that is an item's value
_BLOCK, _LIST, _MAP, _ITEM = object(), object(), object(), object()


def read_block(text: str, plain: Callable[[str], Any], mapping: Callable[[], Any]) -> Any:
    """The data of ``text`` (see the module doc); ``plain`` resolves and constructs a plain scalar
    as the loader does (``'3'`` -> 3, ``'no'`` -> False, ``''`` -> None), ``mapping`` makes an
    empty mapping as the loader does (with a ``duplicates`` list). Raises :class:`NotBlock`."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if not lines:
        raise NotBlock("empty")
    build = _Build(plain, mapping)
    shapes: dict[str, tuple] = {}
    data: Any = None
    open_column = -1  # the column of the innermost node when it is a mapping (data), else -1
    for number, line in enumerate(lines, 1):
        shape = shapes.get(line) or shapes.setdefault(line, build.shape(line, number))
        column, items, key, value, at = shape
        if column != open_column or items:  # the usual line is key[: value] in the open mapping
            data, open_column = build.place(number, shape), at
            if data is None:  # an item's value
                open_column = -1
                continue
        if key in data:
            data.duplicates.append((key, number))
        if value is _BLOCK:
            build.pending, open_column = (data, key, at), -1
            data[key] = None  # its place among the keys; set by the next line
        else:
            data[key] = [] if value is _LIST else mapping() if value is _MAP else value
    return build.end()


class _Build:
    """The open nodes while the lines are read: ``stack`` of (column, node, is a sequence), the
    innermost last; ``pending`` the (mapping, key, column) of a key whose value is below it."""

    def __init__(self, plain: Callable[[str], Any], mapping: Callable[[], Any]) -> None:
        self.plain, self.mapping = plain, mapping
        self.stack: list[tuple[int, Any, bool]] = []
        self.pending: tuple[Any, Any, int] | None = None
        self.root: Any = None

    def scalar(self, text: str) -> Any:
        if text[0] == "'":
            return text[1:-1].replace("''", "'")
        if text == "[]":
            return _LIST
        if text == "{}":
            return _MAP
        return self.plain(text)

    def shape(self, line: str, number: int) -> tuple:
        """(column, items ``- ``, key or _ITEM, value or _BLOCK, column of the key or value) of a line."""
        m = _LINE.match(line)
        if m is None:
            raise NotBlock(f"line {number}")
        indent, dashes, key, value, item = m.groups()
        column, items = len(indent), len(dashes) // 2
        if key is None and not items or key is not None and len(key) > _KEY_CHARS:
            raise NotBlock(f"line {number}")
        if key is None:
            return column, items, _ITEM, self.scalar(item), column + 2 * items
        return column, items, self.scalar(key), _BLOCK if value is None else self.scalar(value), column + 2 * items

    def push(self, column: int, node: Any, sequence: bool) -> None:
        if len(self.stack) >= _DEPTH:
            raise NotBlock("depth")
        self.stack.append((column, node, sequence))

    def place(self, number: int, shape: tuple) -> Any:
        """Open and close the nodes for a line; its mapping, or None when the line is an item's value."""
        column, items, key, value, at = shape
        stack = self.stack
        if self.pending is not None:
            owner, name, column_of_key = self.pending
            self.pending = None
            if column > column_of_key or (column == column_of_key and items):  # at its column: a sequence
                owner[name] = [] if items else self.mapping()
                self.push(column, owner[name], bool(items))
            else:
                owner[name] = self.plain("")
        while stack and (stack[-1][0] > column or (stack[-1][0] == column and stack[-1][2] and not items)):
            stack.pop()
        if not stack and self.root is None:
            self.root = [] if items else self.mapping()
            self.push(column, self.root, bool(items))
        if not stack or stack[-1][0] != column or stack[-1][2] != bool(items):
            raise NotBlock(f"line {number}")
        node = stack[-1][1]
        for i in range(items):  # - - ...: the items are sequences, the last one holds a mapping or a value
            column += 2
            if i < items - 1:
                node.append([])
            elif key is _ITEM:
                node.append([] if value is _LIST else self.mapping() if value is _MAP else value)
                return None
            else:
                node.append(self.mapping())
            self.push(column, node[-1], i < items - 1)
            node = node[-1]
        return node

    def end(self) -> Any:
        if self.pending is not None:
            owner, name, _ = self.pending
            owner[name] = self.plain("")
        return self.root
