"""The model cache holds data only (issue 19, point 2): a file planted in the user's cache folder is
refused and rebuilt, never executed; every family round-trips exactly through the format."""

from __future__ import annotations

import io
import json
import os
import pickle
import zipfile

import numpy as np
import pytest

import advisor.models as models
from advisor.models import FAMILIES, cache_dir, clear_memory_cache, get_family
from advisor.models import cache as model_cache

FAMILY = "boot_time"


@pytest.fixture()
def kb():
    from knowledge.store import KnowledgeBase

    clear_memory_cache()
    with KnowledgeBase.open() as kb:
        yield kb
    clear_memory_cache()


class _Payload:
    """Unpickling this runs os.system: it would create the marker file."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def _fits(monkeypatch):
    calls = []
    cls = FAMILIES[FAMILY].factory
    original = cls.fit

    def counting(self, *a, **k):
        calls.append(1)
        return original(self, *a, **k)

    monkeypatch.setattr(cls, "fit", counting)
    return calls


def _planted_files(marker):
    evil = pickle.dumps(_Payload(marker))
    npz_with_pickle = io.BytesIO()
    np.savez(npz_with_pickle, __meta__=np.array([_Payload(marker)], dtype=object))
    zip_with_pickle = io.BytesIO()
    with zipfile.ZipFile(zip_with_pickle, "w") as zf:
        zf.writestr("__meta__.npy", evil)
    return {"a pickle named .npz": evil, "an npz holding an object array": npz_with_pickle.getvalue(),
            "a zip member that is a pickle": zip_with_pickle.getvalue()}


@pytest.mark.parametrize("kind", ["a pickle named .npz", "an npz holding an object array",
                                  "a zip member that is a pickle"])
def test_a_planted_malicious_file_is_refused_never_executed_and_rebuilt(kb, tmp_path, monkeypatch, kind):
    marker = tmp_path / "executed"
    # the pickle is real: loading it with pickle would run the command
    pickle.loads(pickle.dumps(_Payload(marker)))
    assert marker.exists()
    marker.unlink()
    folder = cache_dir(kb)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{FAMILY}.pkl").write_bytes(pickle.dumps(_Payload(marker)))  # the old file name too
    path = folder / f"{FAMILY}.npz"
    path.write_bytes(_planted_files(marker)[kind])
    calls = _fits(monkeypatch)
    fam = get_family(FAMILY, kb)
    assert not marker.exists()
    assert calls == [1]  # refused, so rebuilt
    assert fam.predict([{"storage_backend": "nfs_root", "concurrent_vms": 8}]).mean[0] > 0
    with np.load(path, allow_pickle=False) as npz:  # replaced by a valid cache file
        assert json.loads(npz["__meta__"].tobytes())["family"] == FAMILY
    assert not marker.exists()


def test_a_tampered_or_foreign_valid_file_is_refused(kb, monkeypatch):
    get_family(FAMILY, kb)
    path = cache_dir(kb) / f"{FAMILY}.npz"
    good = path.read_bytes()
    with np.load(io.BytesIO(good), allow_pickle=False) as npz:
        members = {k: npz[k] for k in npz.files}
    meta = json.loads(members["__meta__"].tobytes())

    def rewrite(change):
        m = json.loads(json.dumps(meta))
        change(m)
        buf = io.BytesIO()
        np.savez(buf, **{**members, "__meta__": np.frombuffer(json.dumps(m).encode(), np.uint8)})
        return buf.getvalue()

    cases = {
        "checksum": rewrite(lambda m: m["state"].update(_log_hi=9.0)),
        "knowledge base": rewrite(lambda m: m.update(kb_digest="0" * 64)),
        "code": rewrite(lambda m: m.update(code="0" * 64)),
        "class": rewrite(lambda m: m.update({"class": "os.system"})),
        "function": rewrite(lambda m: m["state"].update(_core={"$fn": "os:system"})),
        "truncated": good[: len(good) // 2],
    }
    calls = _fits(monkeypatch)
    for what, data in cases.items():
        path.write_bytes(data)
        with pytest.raises(model_cache.CacheRefused):
            model_cache.load(path, FAMILY, FAMILIES[FAMILY].factory, kb.digest, models.MODEL_VERSION)
        clear_memory_cache()
        calls.clear()
        get_family(FAMILY, kb)
        assert calls == [1], what
        assert path.read_bytes() == good, what  # rebuilt as before


@pytest.mark.timeout(30)
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_fifo_in_place_of_a_cache_file_does_not_block(kb):
    folder = cache_dir(kb)
    folder.mkdir(parents=True, exist_ok=True)
    os.mkfifo(folder / f"{FAMILY}.npz")
    assert get_family(FAMILY, kb) is not None


def test_every_family_round_trips_exactly(kb):
    for name in FAMILIES:
        fresh = FAMILIES[name].factory(kb).fit()
        data = model_cache.dumps(fresh, name, kb.digest, models.MODEL_VERSION)
        path = cache_dir(kb) / f"{name}.roundtrip.npz"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        back = model_cache.load(path, name, FAMILIES[name].factory, kb.digest, models.MODEL_VERSION)
        pts = fresh.training_points()
        assert np.array_equal(fresh.predict_points(fresh._core, pts), back.predict_points(back._core, pts)), name
        assert fresh.citations() == back.citations(), name
        assert sorted(vars(fresh)) == sorted(vars(back)), name


def test_no_pickle_in_the_models_package():
    import pathlib

    for path in pathlib.Path(models.__file__).parent.glob("*.py"):
        text = path.read_text()
        assert "import pickle" not in text and "allow_pickle=True" not in text, path
