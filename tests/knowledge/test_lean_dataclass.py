"""``@lean_dataclass`` gives what ``@dataclass`` gives: equality, repr, hashing, the dataclass tools."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import dataclass, field

import pytest

from knowledge.infra.lean import lean_dataclass

pytestmark = pytest.mark.timeout(30)


def _pair(body: str):
    """The same class body under @dataclass and under @lean_dataclass."""
    made = []
    for deco in (dataclass, lean_dataclass):
        ns: dict = {"field": field, "deco": deco}
        exec(f"@deco\nclass Item:\n{body}", ns)  # noqa: S102 - a test builds its classes
        made.append(ns["Item"])
    return made


BODY = """
    name: str
    size: float = 1.0
    tags: list = field(default_factory=list)
    secret: str = field(default="s", repr=False)
    note: str = field(default="", compare=False)
"""


@pytest.mark.parametrize("args", [("a",), ("a", 2.0), ("a", 2.0, [1, "x"], "k", "n")])
def test_the_same_repr_and_equality_as_a_dataclass(args):
    plain, lean = _pair(BODY)
    p, q = plain(*args), lean(*args)
    assert repr(q) == repr(p)
    assert (lean(*args) == q) and not (lean(*args) != q)
    changed = dataclasses.replace(q, size=9.0)
    assert (changed == q) is (dataclasses.replace(p, size=9.0) == p) is False
    assert (dataclasses.replace(q, note="other") == q) is (dataclasses.replace(p, note="other") == p) is True
    assert q.__eq__(p) is NotImplemented and (q == p) is False  # another class, even with the same fields
    assert q.__eq__(object()) is NotImplemented
    assert dataclasses.asdict(q) == dataclasses.asdict(p)
    assert [f.name for f in dataclasses.fields(q)] == [f.name for f in dataclasses.fields(p)]


def test_unhashable_like_a_mutable_dataclass_and_copies_and_pickles():
    plain, lean = _pair(BODY)
    for cls in (plain, lean):
        with pytest.raises(TypeError):
            hash(cls("a"))
    q = lean("a", tags=[1])
    assert copy.deepcopy(q) == q and copy.deepcopy(q) is not q


def test_a_recursive_value_shows_dots_as_a_dataclass_does():
    plain, lean = _pair("    name: str\n    child: object = None\n")
    p, q = plain("a"), lean("a")
    p.child, q.child = p, q
    assert repr(q) == repr(p) == "Item(name='a', child=...)"


def test_methods_written_in_the_class_are_kept():
    @lean_dataclass
    class Own:
        value: int

        def __repr__(self) -> str:
            return "own"

        def __eq__(self, other) -> bool:
            return True

        __hash__ = object.__hash__

    assert repr(Own(1)) == "own" and Own(1) == Own(2) and isinstance(hash(Own(1)), int)


def test_pickles_a_module_level_class():
    from knowledge.host_types import Cpu

    cpu = Cpu()
    assert pickle.loads(pickle.dumps(cpu)) == cpu


@pytest.mark.parametrize("body", ["    only: float\n", "    only: float = field(default=0.0, compare=False)\n",
                                  "    a: float\n    b: object = None\n"])
def test_one_none_or_several_compared_fields_and_a_nan_compare_as_a_dataclass(body):
    plain, lean = _pair(body)
    nan = float("nan")
    for cls in (plain, lean):
        same = cls(nan)
        assert same == same  # the same nan object: equal, as tuples compare by identity first
    assert (lean(nan) == lean(float("nan"))) is (plain(nan) == plain(float("nan")))
    assert (lean(1.0) == lean(2.0)) is (plain(1.0) == plain(2.0))
