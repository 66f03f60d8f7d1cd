"""advisor.models.sweep.sweep: one vectorised Prediction per alternative, equal to row-wise predict."""

from __future__ import annotations

import numpy as np
import pytest

from advisor.models import get_family
from advisor.models.sweep import DEFAULT_KEY, sweep
from knowledge.infra.errors import InputError


def test_sweep_matches_rowwise_predict(kb):
    values = np.linspace(1, 6, 11)
    out = sweep(kb, "cache_mode_throughput", "vms_per_host", values, {"operation": "random_write"},
                alternatives=("cache_mode", ["writeback", "none", "writethrough"]))
    assert list(out) == ["writeback", "none", "writethrough"]
    fam = get_family("cache_mode_throughput", kb)
    for mode, pred in out.items():
        assert pred.mean.shape == (11,)
        rows = fam.predict([{"operation": "random_write", "cache_mode": mode, "vms_per_host": v} for v in values])
        assert pred.mean == pytest.approx(rows.mean)
        assert pred.extrapolated.tolist() == rows.extrapolated.tolist()
        assert np.all(np.diff(pred.mean) <= 1e-9)


def test_sweep_without_alternatives_and_with_calibration(kb):
    out = sweep(kb, "image_transfer_time", "image_size_gb", [3, 6, 9], {"protocol": "scp"},
                calibration={"site": "lab", "scp_mb_s": 60})
    assert list(out) == [DEFAULT_KEY]
    assert out[DEFAULT_KEY].basis == "site:lab"
    assert out[DEFAULT_KEY].mean == pytest.approx([50.0, 100.0, 150.0])


def test_sweep_rejects_bad_requests(kb):
    with pytest.raises(InputError):
        sweep(kb, "boot_time", "concurrent_vms", [], {"storage_backend": "iscsi"})
    with pytest.raises(InputError):
        sweep(kb, "boot_time", "concurrent_vms", [1, 2], {}, alternatives=("concurrent_vms", ["1"]))


def test_sweep_rejects_an_unknown_feature(kb):
    """Defect: varying a feature the family does not have returned a flat curve and no error."""
    with pytest.raises(InputError, match="boot_time has no feature 'concurrent_vm'"):
        sweep(kb, "boot_time", "concurrent_vm", [1, 2, 4], {"storage_backend": "nfs_root"})
    with pytest.raises(InputError, match="alternatives"):
        sweep(kb, "boot_time", "concurrent_vms", [1, 2], {}, alternatives=("backend", ["nfs_root"]))


@pytest.mark.parametrize("values", [["a", "b"], [1.0, float("nan")], [[1, 2], [3, 4]]])
def test_sweep_values_must_be_finite_numbers(kb, values):
    """Defect: string values raised a raw ValueError instead of InputError."""
    with pytest.raises(InputError, match="concurrent_vms"):
        sweep(kb, "boot_time", "concurrent_vms", values, {"storage_backend": "iscsi"})


def test_sweep_over_a_new_optional_feature(kb):
    out = sweep(kb, "boot_time", "server_link_gbps", [1, 2, 4, 10], {"storage_backend": "nfs_root",
                                                                     "concurrent_vms": 16})
    mean = out[DEFAULT_KEY].mean
    assert np.all(np.diff(mean) <= 1e-9) and mean[0] > 5 * mean[-1]


def test_a_remembered_sweep_is_predicted_once_and_handed_out_as_copies(kb, monkeypatch):
    """What-if (#30): a slider step redraws a chart whose curves do not move with it; the same query
    of the same trained family is not predicted again, and no caller can change another's numbers."""
    from advisor.models import sweep as sweep_module

    calls = []
    real = sweep_module.sweep
    monkeypatch.setattr(sweep_module, "sweep", lambda *a, **k: calls.append(a) or real(*a, **k))
    args = (kb, "image_transfer_time", "image_size_gb", np.linspace(1, 9, 5), {"link_gbps": 10.0},
            ("protocol", ["scp", "gsiftp"]))
    first = sweep_module.remembered(*args)
    first["scp"].mean[:] = -1.0  # a caller's own copy
    again = sweep_module.remembered(*args)
    assert len(calls) == 1
    expected = real(*args)
    for level in ("scp", "gsiftp"):
        assert again[level].mean.tolist() == expected[level].mean.tolist()
        assert again[level].low.tolist() == expected[level].low.tolist()
        assert again[level].extrapolated.tolist() == expected[level].extrapolated.tolist()
    sweep_module.remembered(kb, "image_transfer_time", "image_size_gb", np.linspace(1, 9, 6), {"link_gbps": 10.0},
                            ("protocol", ["scp", "gsiftp"]))
    assert len(calls) == 2, "another query is predicted"


def test_a_remembered_sweep_follows_a_new_training_of_its_family(kb, monkeypatch):
    """A family trained anew (another object from get_family) is asked again, not answered from memory."""
    import copy
    import dataclasses

    from advisor.models import sweep as sweep_module

    args = (kb, "image_transfer_time", "image_size_gb", [2.0, 4.0], {"link_gbps": 1.0, "protocol": "scp"})
    before = sweep_module.remembered(*args)[DEFAULT_KEY].mean.tolist()
    fam = get_family("image_transfer_time", kb)
    retrained = copy.copy(fam)
    monkeypatch.setattr(retrained, "predict_columns", lambda columns, n, calibration=None: dataclasses.replace(
        fam.predict_columns(columns, n, calibration), mean=np.full(n, 7.0)))
    monkeypatch.setattr(sweep_module, "get_family", lambda name, kb_: retrained)
    assert sweep_module.remembered(*args)[DEFAULT_KEY].mean.tolist() == [7.0, 7.0] != before
