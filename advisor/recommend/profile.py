"""Per-workload decisions computed once per distinct profile (issue 19: an estate of 10,000
workload groups holds a few hundred distinct profiles).

:func:`per_workload` runs a recommender's per-workload function on a recording view of the
workload: every field the function reads (``w.io.pattern``, ``w.vms``, a property such as
``w.disk_size_gb`` ...), directly or through the rules, is noted with its value, in the order
read. A later workload whose fields hold the same values at those same reads would run the same
code to the same result, so it gets that result without running it: a copy with its own
``scope`` that shares the alternatives, expected figures and citations by reference. Which fields
matter is thus found by running the code, not declared by hand, and stays right when a rule
starts reading another field. (The reads form a tree: the first read is always the same; the
next one depends only on the values read so far.)

What the function may depend on besides the workload must not change during one call (the
scenario, ``ctx.facts``, the earlier choices); anything per workload that is not one of its
fields (a choice of an earlier decision looked up by the workload's name, a target or a fixed
choice given for that name) is passed in as ``fact``, which is part of the profile. The function
must not read ``w.name`` (texts name the workload through the recommendation's scope), else every
workload is a profile of its own: still right, only not shared.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Iterable
from dataclasses import fields, is_dataclass
from operator import attrgetter
from typing import Any

from advisor.recommend.base import EngineContext, Recommendation, fixed_choice

_DC = "<dataclass>"
_SIMPLE = frozenset({str, int, float, bool, type(None)})
_DC_KEYS: dict[type, tuple] = {}  # dataclass -> the key of its objects (found once per class)
_set = object.__setattr__  # (the recording view's own slots: its __setattr__ refuses every write)


def _key(value: Any) -> tuple:
    """What a read value is compared by: its type and value (4 and 4.0 and True stay apart);
    a dataclass by its type alone (its fields are read, and noted, one by one); unhashable
    values by their repr."""
    cls = value.__class__
    if cls in _SIMPLE:
        return (cls, value)
    if cls in _DC_KEYS:
        return _DC_KEYS[cls]
    if is_dataclass(value) and not isinstance(value, type):
        key = _DC_KEYS[cls] = (_DC, type(value))
        return key
    try:
        hash(value)
    except TypeError:
        return (type(value), "<repr>", repr(value))
    return (type(value), value)


class _Trace(list):
    """The reads of one run: (path, :func:`_key` of the value), each path once, in the order first read."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: set[tuple[str, ...]] = set()


class _Recorder:
    """A read-only view of a workload (or of one of its dataclass fields) that notes every read."""

    __slots__ = ("_obj", "_path", "_trace")

    def __init__(self, obj: Any, path: tuple[str, ...], trace: _Trace):
        _set(self, "_obj", obj)
        _set(self, "_path", path)
        _set(self, "_trace", trace)

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._obj, name)
        path = (*self._path, name)
        trace = self._trace
        if path not in trace.seen:  # (a field read again holds the same value: noted once)
            trace.seen.add(path)
            trace.append((path, _key(value)))
        if value.__class__ not in _SIMPLE and _key(value)[0] == _DC:
            return _Recorder(value, path, trace)
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        raise TypeError("a workload is read-only while its recommendation is computed")

    def __eq__(self, other: object) -> bool:  # a workload compared or hashed as a whole: not traceable
        raise TypeError("a workload's profile is read field by field; compare its fields")

    __hash__ = None  # type: ignore[assignment]


def whole(value: Any) -> Any:
    """``value`` (a workload's dataclass field, e.g. ``w.io``) as the plain object, noted as read
    as a whole (every field of it): for a lookup keyed by all of it."""
    if isinstance(value, _Recorder):
        obj = value._obj
        path = ("<whole>", *value._path)
        if path not in value._trace.seen:
            value._trace.seen.add(path)
            value._trace.append((path, whole_key(obj)))
        return obj
    return value


def whole_key(obj: Any) -> Hashable:
    """A hashable key of a dataclass object's fields: the type and every field's :func:`_key` (when
    every field is a plain value: their types and their values, which compare the same way)."""
    values = getattr(obj, "__dict__", None)
    if values is None:  # (a dataclass with slots)
        return (type(obj), tuple(_key(getattr(obj, f.name)) for f in fields(obj)))
    values = tuple(values.values())
    types = tuple(map(type, values))
    if _SIMPLE.issuperset(types):  # (the usual case, in two C calls: the types, then the values, compared apart)
        return (type(obj), types, values)
    return (type(obj), tuple([_key(v) for v in values]))


class _Branch:
    """A read of the tree: the path, and the next node by the value read there. Values of the
    class the branch first saw (a str, an int ...) are looked up as they are; others by their
    :func:`_key` (a tuple: never equal to a plain value), so 1, 1.0 and True stay apart."""

    __slots__ = ("path", "children", "get", "key", "cls")

    def __init__(self, path: tuple[str, ...], first: tuple):
        self.path = path
        self.children: dict[Hashable, Any] = {}
        whole = path[0] == "<whole>"
        self.get = attrgetter(".".join(path[1:] if whole else path))  # the value at the path, in one C call
        self.key = whole_key if whole else _key
        self.cls = first[0] if not whole and first[0] in _SIMPLE else None

    def slot(self, key: tuple) -> Hashable:
        """Where a value noted as ``key`` (:func:`_key`) goes among the children."""
        return key[1] if key[0] is self.cls else key


class _Leaf:
    __slots__ = ("result",)

    def __init__(self, result: Any):
        self.result = result


class ProfileMemo:
    """Results of a per-workload function by the values of the fields it read (see the module doc)."""

    def __init__(self) -> None:
        self.roots: dict[Hashable, Any] = {}
        self.computed = 0  # how many times the function ran (the distinct profiles)

    def lookup(self, root: Hashable, w: Any) -> Any:
        node = self.roots.get(root)
        while node.__class__ is _Branch:
            value = node.get(w)
            node = node.children.get(value if value.__class__ is node.cls else node.key(value))
        return node.result if node is not None else None

    def insert(self, root: Hashable, trace: list, result: Any) -> None:
        if not trace:
            self.roots[root] = _Leaf(result)
            return
        parent: Any = self.roots
        slot: Hashable = root
        for path, key in trace:
            node = parent.get(slot)
            if node is None:
                node = parent[slot] = _Branch(path, key)
            elif node.__class__ is not _Branch or node.path != path:
                return  # the reads did not follow the same order: leave it uncached (never wrong)
            parent, slot = node.children, node.slot(key)
        if slot not in parent:
            parent[slot] = _Leaf(result)

    def get(self, root: Hashable, w: Any, compute: Callable[..., Any], *args: Any) -> Any:
        """``compute(view of w, *args)``, or the result of an earlier workload of the same profile."""
        result = self.lookup(root, w)
        if result is None:
            trace = _Trace()
            result = compute(_Recorder(w, (), trace), *args)
            self.computed += 1
            self.insert(root, trace, result)
        return result


def rescoped(rec: Recommendation, scope: str) -> Recommendation:
    """A copy of ``rec`` for ``scope``: its own scope, warnings, details, rules and conflicts
    lists (cheap, and what later steps may change); alternatives, expected figures and
    citations shared (they are read only once the engine has finished them)."""
    new = object.__new__(Recommendation)
    attrs = new.__dict__  # (written directly: 30,000 copies of an estate)
    attrs.update(rec.__dict__)
    attrs["scope"] = scope
    attrs["warnings"] = list(rec.warnings)
    attrs["details"] = dict(rec.details)
    attrs["rules"] = list(rec.rules)
    attrs["conflicts"] = list(rec.conflicts)
    return new


def per_workload(ctx: EngineContext, decision: str, workloads: Iterable,
                 compute: Callable[[Any, str, Any], Recommendation],
                 fact: Callable[[Any], Hashable] | None = None) -> list[Recommendation]:
    """``compute(w, scope, fact(w))`` for every workload ``w``, run once per distinct profile:
    the fields ``compute`` reads, ``fact(w)`` and the choice the scenario fixes for ``w``
    (``preferences.fixed``); every workload gets a :func:`rescoped` copy of its profile's result.
    Results of different profiles that are equal apart from the scope (a field read that did not
    change the outcome) are one object too, so that whatever groups equal recommendations (the
    JSON of an estate, the reports) finds them by identity. ``compute`` gets a
    recording view of ``w`` and must not keep it; it may give the very object it gave for another
    profile (one built per outcome of the rules), which is then not compared again."""
    memo = ProfileMemo()
    equal: dict[str, Recommendation] = {}  # results of different profiles that came out equal: one object
    placed: dict[int, tuple[Recommendation, Recommendation]] = {}  # id of a result seen -> (it, its one object)

    def same(rec: Recommendation) -> Recommendation:
        if id(rec) in placed:  # a result compute gave before (for another profile of the same outcome)
            return placed[id(rec)][1]
        content = rec.to_dict()
        del content["scope"]
        one = equal.setdefault(json.dumps(content, default=repr), rec)
        placed[id(rec)] = (rec, one)  # (holding rec: its id stays its own)
        return one

    def run(view: Any, scope: str, extra: Any) -> Recommendation:
        return same(compute(view, scope, extra))

    out = []
    for w in workloads:
        scope = f"workload:{w.name}"
        extra = fact(w) if fact is not None else None
        rec = memo.get((fixed_choice(ctx, decision, scope), extra), w, run, scope, extra)
        out.append(rescoped(rec, scope))  # (the first of a profile too: what callers add stays its own)
    ctx.memo[("profiles", decision)] = memo.computed
    return out
