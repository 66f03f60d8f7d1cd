"""``@lean_dataclass``: a mutable ``@dataclass`` whose ``__eq__`` and ``__repr__`` are written once here
instead of compiled for each class.

Python 3.11's ``@dataclass`` generates the source of ``__init__``, ``__repr__`` and ``__eq__`` and
compiles each, ~0.2 ms a class at import: the scenario's 16 dataclasses alone cost ~3 ms of the
start-up to the first window (issue #30). The shared methods give the same results as the generated
ones: ``__eq__`` compares the fields with ``compare=True`` as a tuple, only with an instance of the same
class (else ``NotImplemented``); ``__repr__`` is ``Name(field=value, ...)`` over the fields with
``repr=True``, ``...`` on recursion; the class stays unhashable. ``__init__``, ``fields()``,
``replace()``, ``asdict()`` are the dataclass's own. A method written in the class body is kept.
Equality costs ~2x the generated one per call (a getter per class); no hot path compares these.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")

_COMPARED: dict[type, Callable[[Any], tuple]] = {}
_SHOWN: dict[type, tuple[str, ...]] = {}


def _compared(cls: type) -> Callable[[Any], tuple]:
    """The tuple of an instance's compared fields (one getter per class, made on first use)."""
    getter = _COMPARED.get(cls)
    if getter is None:
        names = [f.name for f in fields(cls) if f.compare]
        if len(names) > 1:
            getter = attrgetter(*names)
        else:  # attrgetter of one name gives the value itself, of none is not allowed
            getter = lambda obj, _names=names: tuple(getattr(obj, n) for n in _names)  # noqa: E731
        _COMPARED[cls] = getter
    return getter


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    values = _compared(self.__class__)
    return values(self) == values(other)


@reprlib.recursive_repr()
def _repr(self: Any) -> str:
    names = _SHOWN.get(self.__class__)
    if names is None:
        names = _SHOWN[self.__class__] = tuple(f.name for f in fields(self) if f.repr)
    shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in names)
    return f"{self.__class__.__qualname__}({shown})"


@dataclass_transform()
def lean_dataclass(cls: type[T]) -> type[T]:
    """``@dataclass`` (mutable, ``eq=True``, ``repr=True``) with the shared ``__eq__`` and ``__repr__``."""
    own = set(vars(cls))
    made = dataclass(eq=False, repr=False)(cls)
    if "__eq__" not in own:
        made.__eq__ = _eq  # type: ignore[method-assign]
        if "__hash__" not in own:
            made.__hash__ = None  # type: ignore[assignment]  # as @dataclass leaves an unfrozen class with __eq__
    if "__repr__" not in own:
        made.__repr__ = _repr  # type: ignore[method-assign]
    return made
