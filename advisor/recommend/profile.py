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


def _key(value: Any) -> tuple:
    """What a read value is compared by: its type and value (4 and 4.0 and True stay apart);
    a dataclass by its type alone (its fields are read, and noted, one by one); unhashable
    values by their repr."""
    cls = value.__class__
    if cls in _SIMPLE:
        return (cls, value)
    if is_dataclass(value) and not isinstance(value, type):
        return (_DC, type(value))
    try:
        hash(value)
    except TypeError:
        return (type(value), "<repr>", repr(value))
    return (type(value), value)


class _Recorder:
    """A read-only view of a workload (or of one of its dataclass fields) that notes every read."""

    __slots__ = ("_obj", "_path", "_trace")

    def __init__(self, obj: Any, path: tuple[str, ...], trace: list):
        self._obj, self._path, self._trace = obj, path, trace

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._obj, name)
        path = (*self._path, name)
        key = _key(value)
        self._trace.append((path, key))
        if key[0] == _DC:
            return _Recorder(value, path, self._trace)
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _Recorder.__slots__:
            object.__setattr__(self, name, value)
            return
        raise TypeError("a workload is read-only while its recommendation is computed")

    def __eq__(self, other: object) -> bool:  # a workload compared or hashed as a whole: not traceable
        raise TypeError("a workload's profile is read field by field; compare its fields")

    __hash__ = None  # type: ignore[assignment]


def whole(value: Any) -> Any:
    """``value`` (a workload's dataclass field, e.g. ``w.io``) as the plain object, noted as read
    as a whole (every field of it): for a lookup keyed by all of it."""
    if isinstance(value, _Recorder):
        obj = value._obj
        value._trace.append((("<whole>", *value._path), whole_key(obj)))
        return obj
    return value


def whole_key(obj: Any) -> Hashable:
    """A hashable key of a dataclass object's fields (the type and every field's :func:`_key`)."""
    values = getattr(obj, "__dict__", None)
    if values is None:  # (a dataclass with slots)
        return (type(obj), tuple(_key(getattr(obj, f.name)) for f in fields(obj)))
    return (type(obj), tuple([_key(v) for v in values.values()]))


def _read(obj: Any, path: tuple[str, ...]) -> Hashable:
    if path[0] == "<whole>":
        for name in path[1:]:
            obj = getattr(obj, name)
        return whole_key(obj)
    for name in path:
        obj = getattr(obj, name)
    return _key(obj)


class _Branch:
    __slots__ = ("path", "children")

    def __init__(self, path: tuple[str, ...]):
        self.path = path
        self.children: dict[Hashable, Any] = {}


class _Leaf:
    __slots__ = ("result",)

    def __init__(self, result: Any):
        self.result = result


class ProfileMemo:
    """Results of a per-workload function by the values of the fields it read (see the module doc).

    Besides the tree of reads, the memo keeps every result by the values of *all* the fields any
    run has read so far (one C-level getter call per workload): two workloads that agree on all of
    them agree on every read of the tree, so this is only a faster way to the same leaf; it is
    rebuilt whenever a run reads a field no earlier run read."""

    def __init__(self) -> None:
        self.roots: dict[Hashable, Any] = {}
        self.computed = 0  # how many times the function ran (the distinct profiles)
        self._paths: list[tuple[str, ...]] = []
        self._keys: list[Callable[[Any], Hashable]] = []
        self._getter: Callable[[Any], tuple] | None = None
        self._fast: dict[Hashable, Any] = {}

    def _fast_key(self, w: Any) -> tuple | None:
        if self._getter is None:
            return ()
        try:
            values = self._getter(w)
        except AttributeError:  # a path through a field that is None here: the tree decides
            return None
        return tuple([f(v) for f, v in zip(self._keys, values, strict=True)])

    def _learn(self, trace: list) -> None:
        known = set(self._paths)
        new = [p for p, _ in trace if p not in known]
        if not new:
            return
        self._paths += list(dict.fromkeys(new))
        self._keys = [whole_key if p[0] == "<whole>" else _key for p in self._paths]
        names = [".".join(p[1:] if p[0] == "<whole>" else p) for p in self._paths]
        one = attrgetter(*names)
        self._getter = one if len(names) > 1 else (lambda w: (one(w),))
        self._fast.clear()

    def _walk(self, root: Hashable, w: Any) -> Any:
        node = self.roots.get(root)
        while isinstance(node, _Branch):
            node = node.children.get(_read(w, node.path))
        return node.result if node is not None else None

    def lookup(self, root: Hashable, w: Any) -> Any:
        fast = self._fast_key(w)
        if fast is not None:
            hit = self._fast.get((root, fast))
            if hit is not None:
                return hit
        result = self._walk(root, w)
        if result is not None and fast is not None:
            self._fast[(root, fast)] = result
        return result

    def insert(self, root: Hashable, trace: list, result: Any) -> None:
        self._learn(trace)
        if not trace:
            self.roots[root] = _Leaf(result)
            return
        parent: Any = self.roots
        slot: Hashable = root
        for path, key in trace:
            node = parent.get(slot)
            if node is None:
                node = parent[slot] = _Branch(path)
            elif not isinstance(node, _Branch) or node.path != path:
                return  # the reads did not follow the same order: leave it uncached (never wrong)
            parent, slot = node.children, key
        if slot not in parent:
            parent[slot] = _Leaf(result)

    def get(self, root: Hashable, w: Any, compute: Callable[[Any], Any]) -> Any:
        """``compute(view of w)``, or the result of an earlier workload of the same profile."""
        result = self.lookup(root, w)
        if result is None:
            trace: list = []
            result = compute(_Recorder(w, (), trace))
            self.computed += 1
            self.insert(root, trace, result)
        return result


def rescoped(rec: Recommendation, scope: str) -> Recommendation:
    """A copy of ``rec`` for ``scope``: its own scope, warnings, details, rules and conflicts
    lists (cheap, and what later steps may change); alternatives, expected figures and
    citations shared (they are read only once the engine has finished them)."""
    new = object.__new__(Recommendation)
    new.__dict__.update(rec.__dict__)
    new.scope = scope
    new.warnings = list(rec.warnings)
    new.details = dict(rec.details)
    new.rules = list(rec.rules)
    new.conflicts = list(rec.conflicts)
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
    recording view of ``w`` and must not keep it."""
    memo = ProfileMemo()
    equal: dict[str, Recommendation] = {}  # results of different profiles that came out equal: one object

    def same(rec: Recommendation) -> Recommendation:
        content = rec.to_dict()
        del content["scope"]
        return equal.setdefault(json.dumps(content, default=repr), rec)

    out = []
    for w in workloads:
        scope = f"workload:{w.name}"
        extra = fact(w) if fact is not None else None

        def run(view: Any, scope: str = scope, extra: Any = extra) -> Recommendation:
            return same(compute(view, scope, extra))

        rec = memo.get((fixed_choice(ctx, decision, scope), extra), w, run)
        out.append(rescoped(rec, scope))  # (the first of a profile too: what callers add stays its own)
    ctx.memo[("profiles", decision)] = memo.computed
    return out
