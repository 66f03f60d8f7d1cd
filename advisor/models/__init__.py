"""The regression families and their registry.

>>> kb = KnowledgeBase.open()
>>> fam = get_family("cache_mode_throughput", kb)          # trained, cached
>>> fam.predict([{"cache_mode": "writeback", "vms_per_host": 2, "operation": "random_read"}]).item()
>>> fam.predict(queries, calibration={"site": "lab", "seq_read_mib_s": 180.0})  # basis "site:lab"

Every family takes ``predict(queries, calibration=None)``: ``queries`` is a list of dicts (feature
-> value; unknown keys are ignored, missing optional ones take the defaults its module documents);
``calibration`` holds a site's native figures (keys per family; unknown keys ignored) and makes
the family transfer the documents' ratios onto them (``Prediction.basis == "site:<name>"``).
Families also offer ``predict_columns(columns, n, calibration=None)`` (one array per feature), which
:func:`advisor.models.sweep.sweep` uses.

``FAMILIES`` maps each name to a :class:`~advisor.models.base.FamilyInfo` (what it predicts, in
which unit, from which rows). Trained families are cached in memory per knowledge-base digest
and on disk under ``user_cache_dir()/models-<digest[:16]>/<name>.npz`` (written atomically, in a
data-only format that is never unpickled: :mod:`advisor.models.cache`, checked against the
knowledge base's digest, :data:`MODEL_VERSION` and the family code); a changed knowledge base has
a new digest, so its models are rebuilt, and a stale, damaged or foreign cache file is refused and
rebuilt.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from advisor.models import cache as model_cache
from advisor.models.base import FamilyInfo, FamilyUnavailable, ModelFamily, Prediction, TrainingPoint
from advisor.models.block_size import BlockSizeThroughput
from advisor.models.boot import BootTime
from advisor.models.cache_mode import CacheModeThroughput
from advisor.models.containers import ContainerOverhead
from advisor.models.cpu import ContainerCpu, ContainerLatency, CpuUtilization
from advisor.models.distributed import DistributedRecoveryTime, DistributedThroughput
from advisor.models.drs import DrsMigrations, DrsPeakCpu
from advisor.models.family import Family
from advisor.models.migration import MigrationDowntime, MigrationTotalTime, OverallocationOverhead
from advisor.models.response import RequestResponseTime
from advisor.models.transfer import ImageTransferTime
from advisor.progress import CancelToken, ProgressCallback, check, report
from knowledge.infra.atomic import write_bytes_atomic
from knowledge.infra.paths import user_cache_dir

__all__ = ["FAMILIES", "MISSING", "MODEL_VERSION", "FamilyInfo", "FamilyUnavailable", "ModelFamily", "Prediction",
           "TrainingPoint", "cache_dir", "clear_memory_cache", "get_family", "train_all"]

#: bump when a family's features, model or stored state changes (invalidates disk caches)
MODEL_VERSION = 23

_CLASSES: list[type[Family]] = [CacheModeThroughput, BootTime, ImageTransferTime, CpuUtilization, OverallocationOverhead,
            MigrationDowntime, MigrationTotalTime, ContainerOverhead, ContainerCpu, ContainerLatency,
            DistributedThroughput, DistributedRecoveryTime, DrsPeakCpu, DrsMigrations, BlockSizeThroughput,
            RequestResponseTime]

_CLASS_OF = {c.name: c for c in _CLASSES}
#: every family class as the ModelFamily protocol: mypy checks that each one satisfies it
_CONTRACT: tuple[type[ModelFamily], ...] = tuple(_CLASSES)

FAMILIES: dict[str, FamilyInfo] = {
    c.name: FamilyInfo(name=c.name, description=c.description, factory=c, tags=(c.unit,))
    for c in _CLASSES
}

#: families of the contract the knowledge base has no data for: name -> why
MISSING: dict[str, str] = {
    "overallocation_response_time": "the knowledge base has no response time measured against the vCPU "
                                    "over-allocation ratio (doc 004 chapters 6 and 8 give peak loads, CPU "
                                    "utilization and migration times only)",
}

log = logging.getLogger(__name__)
_memory: dict[tuple[str, str], ModelFamily] = {}
_lock = threading.Lock()


def cache_dir(kb) -> Path:
    """Directory of the disk cache of ``kb``'s trained families (a Path; not created here)."""
    return user_cache_dir() / f"models-{kb.digest[:16]}"


def clear_memory_cache() -> None:
    """Forget the in-memory trained families (the disk cache stays)."""
    with _lock:
        _memory.clear()


def get_family(name: str, kb) -> ModelFamily:
    """The trained family ``name`` for knowledge base ``kb`` (memory, then disk cache, then fit)."""
    if name not in FAMILIES:
        why = f" ({MISSING[name]})" if name in MISSING else ""
        raise FamilyUnavailable(f"no model family {name!r}{why}; known: {', '.join(FAMILIES)}")
    key = (kb.digest, name)
    with _lock:
        fam = _memory.get(key)
    if fam is not None:
        return fam
    fam = _load(kb, name)
    if fam is None:
        fam = FAMILIES[name].factory(kb).fit()
        _store(kb, name, fam)
    with _lock:
        _memory[key] = fam
    return fam


def train_all(kb, progress: ProgressCallback | None = None,
              cancel: CancelToken | None = None) -> dict[str, ModelFamily]:
    """Every family of :data:`FAMILIES`, trained (or loaded from the caches), by name."""
    out = {}
    for i, name in enumerate(FAMILIES):
        check(cancel)
        report(progress, i / len(FAMILIES), f"training {name}")
        out[name] = get_family(name, kb)
    report(progress, 1.0, "models ready")
    return out


def _path(kb, name: str) -> Path:
    return cache_dir(kb) / f"{name}{model_cache.SUFFIX}"


def _load(kb, name: str):
    """The cached family, or None (no file, or a file refused: see :mod:`advisor.models.cache`)."""
    path = _path(kb, name)
    if not path.exists() and not path.is_symlink():
        return None
    try:
        return model_cache.load(path, name, _CLASS_OF[name], kb.digest, MODEL_VERSION)
    except model_cache.CacheRefused as exc:
        log.info("model cache %s refused (%s); rebuilding it", path, exc)
        return None


def _store(kb, name: str, fam) -> None:
    try:
        data = model_cache.dumps(fam, name, kb.digest, MODEL_VERSION)
    except model_cache.NotCacheable as exc:
        log.warning("family %s is not cached: its state holds %s", name, exc)
        return
    try:
        write_bytes_atomic(_path(kb, name), data, private=True)
    except Exception:  # noqa: BLE001 - a cache that cannot be written only costs a refit
        pass
