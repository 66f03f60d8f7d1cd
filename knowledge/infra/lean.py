"""``@lean_dataclass``: a mutable ``@dataclass`` whose ``__eq__`` and ``__repr__`` are written once here
instead of compiled for each class.

Python 3.11's ``@dataclass`` generates the source of ``__init__``, ``__repr__`` and ``__eq__`` and
compiles each, ~0.2 ms a class at import: the scenario's 16 dataclasses alone cost ~3 ms of the
start-up to the first window (issue #30). The shared methods give the same results as the generated
ones: ``__eq__`` compares the fields with ``compare=True`` as a tuple, only with an instance of the same
class (else ``NotImplemented``); ``__repr__`` is ``Name(field=value, ...)`` over the fields with
``repr=True``, ``...`` on recursion; the class stays unhashable. ``__init__``, ``fields()``,
``replace()``, ``asdict()`` are the dataclass's own. A method written in the class body is kept.
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass, fields
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")

_COMPARED: dict[type, tuple[str, ...]] = {}
_SHOWN: dict[type, tuple[str, ...]] = {}


def _names(cls: type, cache: dict[type, tuple[str, ...]], flag: str) -> tuple[str, ...]:
    names = cache.get(cls)
    if names is None:
        names = cache[cls] = tuple(f.name for f in fields(cls) if getattr(f, flag))
    return names


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    names = _names(self.__class__, _COMPARED, "compare")
    return tuple(getattr(self, n) for n in names) == tuple(getattr(other, n) for n in names)


@reprlib.recursive_repr()
def _repr(self: Any) -> str:
    shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in _names(self.__class__, _SHOWN, "repr"))
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
