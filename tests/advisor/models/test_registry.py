"""get_family / train_all: memory and disk caches, invalidation by digest and version."""

from __future__ import annotations

import json

import numpy as np
import pytest

import advisor.models as models
from advisor.models import FAMILIES, cache_dir, clear_memory_cache, get_family, train_all
from advisor.progress import Cancelled, CancelToken
from knowledge.infra.errors import InputError
from tests import model_cache


class _OtherDigest:
    """The same knowledge base seen with another digest (as after a curated-data change)."""

    def __init__(self, kb, digest):
        self._kb, self.digest = kb, digest

    def __getattr__(self, name):
        return getattr(self._kb, name)


@pytest.fixture(autouse=True)
def _fresh_memory():
    with model_cache.fresh_memory():
        yield


def _count_fits(monkeypatch, name):
    calls = []
    info = FAMILIES[name]
    original = info.factory

    def factory(kb):
        calls.append(kb.digest)
        return original(kb)

    monkeypatch.setattr(info, "factory", factory)
    return calls


def test_contract_names_are_registered():
    for name in ("cache_mode_throughput", "boot_time", "image_transfer_time"):
        assert name in FAMILIES and FAMILIES[name].description


def test_unknown_family_is_an_input_error(kb):
    with pytest.raises(InputError, match="known"):
        get_family("no_such_family", kb)


def test_memory_then_disk_cache(kb, monkeypatch):
    calls = _count_fits(monkeypatch, "boot_time")
    first = get_family("boot_time", kb)
    assert get_family("boot_time", kb) is first
    assert len(calls) == 1
    path = cache_dir(kb) / "boot_time.npz"
    assert path.is_file() and path.parent.name == f"models-{kb.digest[:16]}"
    clear_memory_cache()
    again = get_family("boot_time", kb)  # from disk, no refit
    assert len(calls) == 1 and again is not first
    q = [{"storage_backend": "nfs_root", "concurrent_vms": 8}]
    assert again.predict(q).mean[0] == pytest.approx(first.predict(q).mean[0])


def test_changed_digest_rebuilds(kb, monkeypatch):
    calls = _count_fits(monkeypatch, "boot_time")
    get_family("boot_time", kb)
    other = _OtherDigest(kb, "f" * 64)
    get_family("boot_time", other)
    assert calls == [kb.digest, "f" * 64]
    assert (cache_dir(other) / "boot_time.npz").is_file()
    assert cache_dir(other) != cache_dir(kb)


def test_stale_version_or_corrupt_file_rebuilds(kb, monkeypatch):
    calls = _count_fits(monkeypatch, "image_transfer_time")
    get_family("image_transfer_time", kb)
    path = cache_dir(kb) / "image_transfer_time.npz"
    clear_memory_cache()
    monkeypatch.setattr(models, "MODEL_VERSION", models.MODEL_VERSION + 1)
    get_family("image_transfer_time", kb)
    assert len(calls) == 2
    with np.load(path, allow_pickle=False) as npz:  # rewritten with the new stamp
        assert json.loads(npz["__meta__"].tobytes())["model_version"] == models.MODEL_VERSION
    clear_memory_cache()
    path.write_bytes(b"not a cache file")
    get_family("image_transfer_time", kb)
    assert len(calls) == 3


def test_train_all_reports_progress_and_honours_cancel(kb):
    seen = []
    fams = train_all(kb, progress=lambda f, m: seen.append((f, m)))
    assert set(fams) == set(FAMILIES)
    assert seen[-1][0] == 1.0 and all(0 <= f <= 1 for f, _ in seen)
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        train_all(kb, cancel=token)


def test_every_family_predicts_nothing_for_no_queries_and_rejects_nan(trained):
    for name, fam in trained.items():
        pred = fam.predict([])
        assert pred.mean.shape == (0,) and pred.unit == fam.unit, name
    with pytest.raises(InputError, match="finite"):
        trained["cache_mode_throughput"].predict([{"cache_mode": "none", "operation": "rewrite",
                                                   "vms_per_host": float("nan")}])
    with pytest.raises(InputError, match="required"):
        trained["boot_time"].predict([{"concurrent_vms": 2}])


def test_every_family_cites_its_rows_and_has_a_unit(trained, session_kb):
    docs = {d.id for d in session_kb.documents()}
    for name, fam in trained.items():
        assert fam.unit and fam.citations(), name
        assert {doc for doc, _ in fam.citations()} <= docs, name
        for p in fam.training_points():
            assert p.document in docs and p.locator and p.key, (name, p)


def test_importing_the_models_does_not_import_sklearn():
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    code = "import sys, advisor.models, advisor.models.sweep; print('sklearn' in sys.modules, 'scipy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


# --- shared machinery: explicit NaN, calibration values ---------------------------------------
def test_an_explicit_nan_is_not_a_missing_value(trained):
    """Defect: cpu_utilization's load=NaN silently became the workload's default rate: NaN marks "not
    given" inside family.column(); an explicit NaN must be an error, an absent value the default."""
    cpu = trained["cpu_utilization"]
    with pytest.raises(InputError, match="cpu_utilization.*'load'.*finite"):
        cpu.predict([{"hypervisor": "native", "load": float("nan")}])
    with pytest.raises(InputError, match="load"):
        cpu.predict_columns({"hypervisor": "native", "load": np.array([1e4, np.nan])}, 2)
    given = cpu.predict([{"hypervisor": "native"}, {"hypervisor": "native", "load": 80000.0}])
    assert given.mean[0] == pytest.approx(given.mean[1])


def test_column_keeps_absent_and_explicit_apart():
    from advisor.models.family import column

    assert np.isnan(column({}, "x", 2, np.nan)).all()
    got = column({"x": [None, 3.0]}, "x", 2, np.nan)
    assert np.isnan(got[0]) and got[1] == 3.0
    with pytest.raises(InputError, match="fam: feature 'x' must be a finite number"):
        column({"x": [np.nan, 3.0]}, "x", 2, np.nan, family="fam")
    with pytest.raises(InputError, match="numeric"):
        column({"x": "abc"}, "x", 2, 1.0, family="fam")


CALIBRATED = {"cache_mode_throughput": ({"cache_mode": "none", "vms_per_host": 1, "operation": "sequential_read"},
                                        {"seq_read_mib_s": 180.0}),
              "boot_time": ({"storage_backend": "local_disk", "concurrent_vms": 0}, {"boot_time_s": 20.0}),
              "image_transfer_time": ({"image_size_gb": 6, "protocol": "scp"}, {"scp_mb_s": 60.0}),
              "cpu_utilization": ({"hypervisor": "VMware ESXi"}, {"native_cpu_percent": 40.0, "native_load": 80000}),
              "container_cpu": ({"platform": "vm"}, {"native_cpu_percent": 40.0, "native_load": 80000}),
              "container_overhead": ({"platform": "vm"}, {"native_tps": 50000.0})}


@pytest.mark.parametrize("name", sorted(CALIBRATED))
@pytest.mark.parametrize("value", [-5, 0, "abc", float("nan"), float("inf"), True])
def test_calibration_values_are_checked_in_every_family(trained, name, value):
    """Defect: seq_read_mib_s=-5 gave 0 MB/s, "abc" a raw ValueError, boot_time_s=NaN gave NaN,
    scp_mb_s=0 inf, native_load=0 a division by zero, native_tps=-1 a negative rate."""
    query, cal = CALIBRATED[name]
    for key in cal:
        with pytest.raises(InputError, match=f"{name}: calibration figure {key!r}"):
            trained[name].predict([query], calibration={**cal, key: value, "site": "x"})


@pytest.mark.parametrize("name", sorted(CALIBRATED))
def test_calibrated_intervals_keep_their_width(trained, name):
    """Defect: a calibrated interval collapsed to one value; it carries the documents' relative interval."""
    query, cal = CALIBRATED[name]
    docs = trained[name].predict([query])
    site = trained[name].predict([query], calibration={**cal, "site": "x"})
    assert site.basis == "site:x"
    assert site.low[0] < site.mean[0] < site.high[0]
    assert site.high[0] / site.low[0] == pytest.approx(docs.high[0] / docs.low[0], rel=1e-6)
