"""The disk cache of trained families, in a format that holds data only (no pickle).

A trained family is stored as one ``.npz`` file written by :func:`numpy.savez` (a zip of ``.npy``
arrays, never an object array) and read back with ``allow_pickle=False``: member ``__meta__`` is a
UTF-8 JSON document with the family's state as a tree of plain values, and every numpy array of
the state is a member ``a0``, ``a1``, ... of its own. Reading it runs no code of the file: the JSON
tree only names

* plain values (None, booleans, numbers, text; lists, tuples, sets and mappings of them; NaN and
  infinities as ``{"$f": "nan"}`` ...), numpy arrays (``{"$a": 3}``) and numpy scalars,
* the dataclasses of :data:`_DATACLASSES` (built from their fields),
* module-level functions of ``advisor.models.*`` (the model functions of nonlinear fits), and
* the family itself, whose class must be the registered class of that family name.

The meta document also carries a SHA-256 of the state and the arrays, the knowledge base's digest,
:data:`advisor.models.MODEL_VERSION` and a digest of the family code (the source of
``advisor/models``); a file whose checks fail, that is not a regular file, is larger than
:data:`MAX_CACHE_BYTES`, has members other than ours or any value outside this vocabulary is
refused (:class:`CacheRefused`) and the family is rebuilt and the file replaced.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import importlib.util
import inspect
import io
import json
import math
import zipfile
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from advisor.models.base import TrainingPoint
from advisor.models.learners import LogLinearModel, NonlinearModel

#: the layout of the file; bump it when the encoding changes
FORMAT = 1
#: the largest cache file read (the largest family is well under 1 MiB)
MAX_CACHE_BYTES = 64 * 1024 * 1024
SUFFIX = ".npz"

_DATACLASSES: dict[str, type] = {c.__name__: c for c in (TrainingPoint, LogLinearModel, NonlinearModel)}
_FUNCTION_PACKAGE = "advisor.models."


class CacheRefused(Exception):
    """A cache file that is not one of ours, or not for this knowledge base and code."""


class NotCacheable(Exception):
    """A family whose state holds a value the format cannot hold (it is then not cached)."""


@lru_cache(maxsize=1)
def code_digest() -> str:
    """SHA-256 of the family code: the source of every module of ``advisor.models`` (in a build
    without sources, their compiled code)."""
    import marshal
    import pkgutil

    import advisor.models as package

    h = hashlib.sha256()
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        fullname = f"{package.__name__}.{info.name}"
        h.update(fullname.encode())
        spec = importlib.util.find_spec(fullname)
        origin = Path(spec.origin) if spec and spec.origin else None
        if origin is not None and origin.suffix == ".py" and origin.is_file():
            h.update(origin.read_bytes())
        elif spec is not None and spec.loader is not None and hasattr(spec.loader, "get_code"):
            code = spec.loader.get_code(fullname)
            h.update(marshal.dumps(code) if code is not None else b"")
    return h.hexdigest()


# --- encoding ------------------------------------------------------------------------------------

class _Encoder:
    def __init__(self) -> None:
        self.arrays: list[np.ndarray] = []

    def __call__(self, x: Any) -> Any:  # noqa: C901 - one branch per kind of value
        if x is None or isinstance(x, bool):
            return x
        if isinstance(x, np.ndarray):
            if x.dtype.hasobject:
                raise NotCacheable("an object array")
            self.arrays.append(np.ascontiguousarray(x))
            return {"$a": len(self.arrays) - 1}
        if isinstance(x, np.generic):
            if x.dtype.hasobject:
                raise NotCacheable("an object scalar")
            return {"$n": x.dtype.str, "v": self(x.item())}
        if isinstance(x, int):
            return x
        if isinstance(x, float):
            return x if math.isfinite(x) else {"$f": repr(x)}
        if isinstance(x, str):
            return x
        if isinstance(x, list):
            return [self(v) for v in x]
        if isinstance(x, tuple):
            return {"$t": [self(v) for v in x]}
        if isinstance(x, frozenset):
            return {"$fs": [self(v) for v in x]}
        if isinstance(x, set):
            return {"$s": [self(v) for v in x]}
        if isinstance(x, dict):
            return {"$d": [[self(k), self(v)] for k, v in x.items()]}
        if dataclasses.is_dataclass(x) and type(x).__name__ in _DATACLASSES \
                and _DATACLASSES[type(x).__name__] is type(x):
            return {"$c": type(x).__name__,
                    "v": {f.name: self(getattr(x, f.name)) for f in dataclasses.fields(x)}}
        if inspect.isfunction(x):
            return {"$fn": _function_name(x)}
        raise NotCacheable(f"a {type(x).__module__}.{type(x).__qualname__}")


def _function_name(fn: Callable) -> str:
    module, qualname = fn.__module__, fn.__qualname__
    if not module.startswith(_FUNCTION_PACKAGE) or "." in qualname or "<" in qualname:
        raise NotCacheable(f"function {module}.{qualname} (only module-level functions of advisor.models)")
    return f"{module}:{qualname}"


# --- decoding ------------------------------------------------------------------------------------

_TAGS = {"$a", "$n", "$f", "$t", "$fs", "$s", "$d", "$c", "$fn"}


class _Decoder:
    def __init__(self, arrays: dict[str, np.ndarray]):
        self.arrays = arrays

    def __call__(self, x: Any) -> Any:  # noqa: C901 - one branch per tag
        if x is None or isinstance(x, (bool, int, float, str)):
            return x
        if isinstance(x, list):
            return [self(v) for v in x]
        if not isinstance(x, dict) or len(x) not in (1, 2) or not (set(x) & _TAGS):
            raise CacheRefused("an unknown value in the state")
        if "$a" in x:
            return self.arrays[f"a{int(x['$a'])}"]
        if "$n" in x:
            dtype = np.dtype(str(x["$n"]))
            if dtype.hasobject:
                raise CacheRefused("an object scalar")
            return np.array(self(x["v"]), dtype=dtype)[()]
        if "$f" in x:
            if x["$f"] not in ("nan", "inf", "-inf"):
                raise CacheRefused("a bad float")
            return float(x["$f"])
        if "$t" in x:
            return tuple(self(v) for v in x["$t"])
        if "$fs" in x:
            return frozenset(self(v) for v in x["$fs"])
        if "$s" in x:
            return {self(v) for v in x["$s"]}
        if "$d" in x:
            return {self(k): self(v) for k, v in x["$d"]}
        if "$c" in x:
            cls = _DATACLASSES.get(x["$c"])
            if cls is None or not isinstance(x.get("v"), dict):
                raise CacheRefused(f"an unknown class {x['$c']!r}")
            names = {f.name for f in dataclasses.fields(cls)}
            if set(x["v"]) - names:
                raise CacheRefused(f"unknown fields of {x['$c']}")
            return cls(**{k: self(v) for k, v in x["v"].items()})
        return _function(str(x["$fn"]))


def _function(name: str) -> Callable:
    module, _, qualname = name.partition(":")
    if not module.startswith(_FUNCTION_PACKAGE) or not qualname.isidentifier():
        raise CacheRefused(f"function {name!r} is not a model function")
    mod = importlib.import_module(module)  # a module of this program, imported anyway
    fn = getattr(mod, qualname, None)
    if not inspect.isfunction(fn) or fn.__module__ != module:
        raise CacheRefused(f"function {name!r} is not a model function")
    return fn


# --- files ---------------------------------------------------------------------------------------

def _checksum(meta: dict, arrays: list[np.ndarray]) -> str:
    h = hashlib.sha256(json.dumps(meta, sort_keys=True, allow_nan=False).encode())
    for a in arrays:
        h.update(f"{a.dtype.str}{a.shape}".encode())
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def dumps(family: Any, name: str, kb_digest: str, model_version: int) -> bytes:
    """The cache file of a trained ``family`` (bytes of an ``.npz``); NotCacheable if its state
    holds something the format cannot hold."""
    enc = _Encoder()
    meta = {"format": FORMAT, "family": name, "class": f"{type(family).__module__}.{type(family).__qualname__}",
            "model_version": model_version, "kb_digest": kb_digest, "code": code_digest(),
            "state": {k: enc(v) for k, v in vars(family).items()}}
    meta["sha256"] = _checksum(meta, enc.arrays)
    buf = io.BytesIO()
    members: dict[str, Any] = {"__meta__": np.frombuffer(json.dumps(meta, allow_nan=False).encode(), dtype=np.uint8)}
    members.update({f"a{i}": a for i, a in enumerate(enc.arrays)})
    np.savez(buf, **members)
    return buf.getvalue()


def load(path: Path, name: str, cls: type, kb_digest: str, model_version: int) -> Any:
    """The family stored in ``path``; :class:`CacheRefused` when it is not a valid cache file of
    family ``name`` (class ``cls``) for this knowledge base, model version and code."""
    from knowledge.infra.errors import InputError
    from knowledge.infra.files import read_regular_bytes

    try:
        data = read_regular_bytes(path, "model cache", MAX_CACHE_BYTES)
    except InputError as exc:
        raise CacheRefused(str(exc)) from None
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            infos = zf.infolist()
            if sum(i.file_size for i in infos) > MAX_CACHE_BYTES:
                raise CacheRefused("members too large")
            members = {i.filename for i in infos}
        if "__meta__.npy" not in members or any(
                m != "__meta__.npy" and not (m.startswith("a") and m[1:-4].isdigit() and m.endswith(".npy"))
                for m in members):
            raise CacheRefused("not a model cache file")
        with np.load(io.BytesIO(data), allow_pickle=False) as npz:
            raw = {k: npz[k] for k in npz.files}
        if not all(isinstance(v, np.ndarray) and not v.dtype.hasobject for v in raw.values()):
            raise CacheRefused("a member that is not a plain array")
        meta = json.loads(raw.pop("__meta__").tobytes().decode("utf-8"))
    except CacheRefused:
        raise
    except (zipfile.BadZipFile, ValueError, OSError, KeyError, EOFError, UnicodeDecodeError,
            RecursionError) as exc:
        raise CacheRefused(f"unreadable ({type(exc).__name__}: {exc})") from None
    if not isinstance(meta, dict):
        raise CacheRefused("no meta document")
    expected = {"format": FORMAT, "family": name, "class": f"{cls.__module__}.{cls.__qualname__}",
                "model_version": model_version, "kb_digest": kb_digest, "code": code_digest()}
    for key, want in expected.items():
        if meta.get(key) != want:
            raise CacheRefused(f"{key} is {meta.get(key)!r}, not {want!r}")
    stored = meta.pop("sha256", None)
    arrays = [raw[f"a{i}"] for i in range(len(raw)) if f"a{i}" in raw]
    if len(arrays) != len(raw) or stored != _checksum(meta, arrays):
        raise CacheRefused("checksum mismatch")
    state = meta.get("state")
    if not isinstance(state, dict):
        raise CacheRefused("no state")
    try:
        decoded = {str(k): _Decoder(raw)(v) for k, v in state.items()}
    except (TypeError, ValueError, KeyError, RecursionError) as exc:
        raise CacheRefused(f"bad state ({type(exc).__name__}: {exc})") from None
    family: Any = object.__new__(cls)  # no __init__: the state is the stored one
    family.__dict__.update(decoded)
    return family
