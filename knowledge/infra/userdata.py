"""Reading the data of the user's files: YAML, TOML or JSON into plain data whose mappings remember
the keys they had more than once, so that the validating reader
(:class:`knowledge.infra.reader.MappingReader`) refuses a key given twice the same way in every
user file (scenario, cost catalogue). :func:`read_user_data` reads a file with the safe read of
:mod:`knowledge.infra.files` (a regular file of bounded size) and parses it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from knowledge.infra.errors import InputError
from knowledge.infra.files import read_regular_text

#: the formats a user file may have, by suffix
FORMATS = {".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".json": "json"}


def read_user_data(path: Path | str, what: str, limit: int, fmt: str) -> Any:
    """The data of the user's file ``path`` (``what`` names it in messages: ``scenario``, ``cost
    catalogue``), at most ``limit`` bytes, parsed as ``fmt`` (see :func:`loads`); a byte-order
    mark is ignored."""
    text = read_regular_text(path, what, limit)
    return loads(text.removeprefix("\ufeff"), fmt, str(path))


def plain(data: Any) -> Any:
    """``data`` with every :class:`KeyedMapping` turned into a plain dict (iteratively: any depth)."""
    def convert(x: Any) -> Any:
        return dict(x) if isinstance(x, KeyedMapping) else x

    root = convert(data)
    stack = [root]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in list(items):
            if isinstance(value, (dict, list)):
                node[key] = convert(value)
                stack.append(node[key])
    return root


class KeyedMapping(dict):
    """A mapping read from a file that remembers the keys it had more than once (key, line or None)."""

    duplicates: list[tuple[Any, int | None]]

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.duplicates = []


def _json_pairs(pairs: list[tuple[str, Any]]) -> KeyedMapping:
    out = KeyedMapping(pairs)
    if len(out) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                out.duplicates.append((key, None))
            seen.add(key)
    return out


def _yaml_loader() -> type:
    """A safe YAML loader (libyaml's when present) whose mappings remember duplicate keys."""
    import yaml

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class Loader(base):  # type: ignore[misc, valid-type]
        def construct_yaml_map(self, node):  # noqa: ANN001 - PyYAML's constructor protocol
            data = KeyedMapping()
            yield data
            seen: set[Any] = set()
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue  # keys merged in with << may be overridden
                key = self.construct_object(key_node)
                try:
                    if key in seen:
                        data.duplicates.append((key, key_node.start_mark.line + 1))
                    seen.add(key)
                except TypeError:  # unhashable: construct_mapping says so
                    pass
            data.update(self.construct_mapping(node))

        def resolve(self, kind, value, implicit):  # noqa: ANN001, ANN201 - PyYAML's resolver protocol
            """The resolver's tag, remembered per (value, implicit) for scalars: an estate repeats the
            same few words and numbers tens of thousands of times."""
            if kind is not yaml.ScalarNode:
                return super().resolve(kind, value, implicit)
            cache = self.__dict__.setdefault("_tags", {})
            key = (value, implicit)
            tag = cache.get(key)
            if tag is None:
                tag = cache[key] = super().resolve(kind, value, implicit)
            return tag

    Loader.add_constructor("tag:yaml.org,2002:map", Loader.construct_yaml_map)
    return Loader


class _Slow(Exception):
    """A YAML document :func:`_yaml_fast` leaves to the loader's own construction."""


_YAML_TAG = "tag:yaml.org,2002:"
_YAML_SCALARS = {_YAML_TAG + t for t in ("int", "float", "bool", "null")}
#: deeper documents are left to the loader (which reports nesting it cannot follow)
_FAST_DEPTH = 64


def _yaml_fast(text: str, loader_class: type) -> Any:
    """The data of a YAML document as the loader constructs it (mappings that remember duplicate
    keys, the same numbers, booleans and nulls, aliases as one shared object), built straight
    from the composed nodes: the loader's construction costs a few Python calls per node, which
    at 10,000 workload groups was most of the time to read the file. Raises :class:`_Slow` for
    anything else (merge keys, other tags, keys that are not scalars, deep nesting)."""
    import yaml

    loader = loader_class(text)
    try:
        root = loader.get_single_node()
        if root is None:
            return None
        built: dict[int, Any] = {}
        values: dict[tuple[str, str], Any] = {}
        scalar_node, sequence_node, mapping_node = yaml.ScalarNode, yaml.SequenceNode, yaml.MappingNode
        merge, string = _YAML_TAG + "merge", _YAML_TAG + "str"

        def scalar(node: Any) -> Any:
            if node.tag == string:
                return node.value
            key = (node.tag, node.value)
            try:
                return values[key]
            except KeyError:
                pass
            if node.tag not in _YAML_SCALARS:
                raise _Slow(node.tag)
            value = values[key] = loader.construct_object(node)
            return value

        def build(node: Any, depth: int) -> Any:
            cls = node.__class__
            if cls is scalar_node:
                return scalar(node)
            if depth > _FAST_DEPTH:
                raise _Slow("depth")
            if id(node) in built:  # an alias
                return built[id(node)]
            if cls is sequence_node and node.tag == _YAML_TAG + "seq":
                items: list = []
                built[id(node)] = items
                items.extend(build(n, depth + 1) for n in node.value)
                return items
            if cls is mapping_node and node.tag == _YAML_TAG + "map":
                data = KeyedMapping()
                built[id(node)] = data
                seen: set = set()
                for key_node, value_node in node.value:
                    if key_node.__class__ is not scalar_node or key_node.tag == merge:
                        raise _Slow("key")
                    key = scalar(key_node)
                    if key in seen:
                        data.duplicates.append((key, key_node.start_mark.line + 1))
                    seen.add(key)
                    data[key] = build(value_node, depth + 1)
                return data
            raise _Slow(node.tag)

        return build(root, 0)
    finally:
        loader.dispose()


def _plain_scalars(loader_class: type) -> Callable[[str], Any]:
    """The value of a plain scalar of one line as ``loader_class`` resolves and constructs it
    (remembered per text: an estate repeats the same few words and numbers); raises
    :class:`~knowledge.infra.yamlblock.NotBlock` for a tag other than a string, number, boolean
    or null (a date, a merge key) and for a value the loader refuses (an integer of thousands of
    digits: the loader reports a broken line below it first)."""
    import yaml

    from knowledge.infra.yamlblock import NotBlock

    loader = loader_class("")
    values: dict[str, Any] = {}

    def plain(text: str) -> Any:
        try:
            return values[text]
        except KeyError:
            pass
        tag = loader.resolve(yaml.ScalarNode, text, (True, False))
        if tag == _YAML_TAG + "str":
            value = text
        elif tag in _YAML_SCALARS:
            try:
                value = loader.construct_object(yaml.ScalarNode(tag, text))
            except ValueError:
                raise NotBlock(tag) from None
        else:
            raise NotBlock(tag)
        values[text] = value
        return value

    return plain


def loads(text: str, fmt: str, source: str) -> Any:
    """Parse the text of a user file of format ``yaml``, ``toml`` or ``json`` into plain data.

    Syntax errors, nesting too deep for the parser and (YAML, JSON) duplicate keys are reported as
    errors of that format naming the file and line; duplicate keys become problems of
    the validating reader (:class:`knowledge.infra.reader.MappingReader`) at the field's path
    (TOML refuses them itself)."""
    if fmt == "json":
        return json_document(text, source, object_pairs_hook=_json_pairs)
    if fmt == "toml":
        import tomllib

        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise InputError(f"{source}: invalid TOML: {_toml_detail(exc, text)}") from None
        except RecursionError:
            raise InputError(f"{source}: invalid TOML: nested too deeply") from None
        except ValueError as exc:
            raise InputError(f"{source}: invalid TOML: {exc}") from None
    import yaml

    from knowledge.infra.yamlblock import NotBlock, read_block

    loader = _yaml_loader()
    try:
        try:
            return read_block(text, _plain_scalars(loader), KeyedMapping)
        except NotBlock:
            pass
        try:
            return _yaml_fast(text, loader)
        except _Slow:
            pass
        return yaml.load(text, Loader=loader)  # noqa: S506 - a SafeLoader subclass
    except RecursionError:
        raise InputError(f"{source}: invalid YAML: nested too deeply") from None
    except (yaml.YAMLError, ValueError) as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise InputError(f"{source}: invalid YAML{where}: {getattr(exc, 'problem', None) or exc}") from None


def _toml_detail(exc: Exception, text: str) -> str:
    """tomllib's message, with the offending line quoted when it names one (duplicate keys)."""
    msg = str(exc)
    found = re.search(r"at line (\d+)", msg)
    lines = text.splitlines()
    if found and 0 < int(found.group(1)) <= len(lines):
        line = lines[int(found.group(1)) - 1].strip()
        if line:
            msg += f": {line[:80]!r}"
    return msg


def json_document(text: str, source: object, **hooks: Any) -> Any:
    """``json.loads(text, **hooks)`` with every way it fails as an InputError naming ``source``: the
    line and column of a syntax error, nesting too deep for the parser, and any other refusal (an
    integer of thousands of digits, a hook's ValueError such as a ``NaN`` literal refused)."""
    try:
        return json.loads(text, **hooks)
    except json.JSONDecodeError as exc:
        raise InputError(f"{source}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise InputError(f"{source}: invalid JSON: nested too deeply") from None
    except ValueError as exc:
        raise InputError(f"{source}: invalid JSON: {str(exc)[:200]}") from None
