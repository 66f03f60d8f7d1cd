"""Issue #34, points 2 and 5: ``capadvisor replay --suite DIR`` reads its ``*.yaml`` files with the
same checks as every other input: a link to ``/dev/zero`` and a FIFO are refused at once, a file
nested 20,000 deep is an error naming the file. Each run is bounded (tests/hostile.py)."""

from __future__ import annotations

import os

import pytest

from tests.hostile import run_capped

pytestmark = pytest.mark.timeout(300)


def _suite(tmp_path):
    d = tmp_path / "suite"
    d.mkdir()
    return d


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_link_to_dev_zero_is_refused(tmp_path):
    d = _suite(tmp_path)
    (d / "a.yaml").symlink_to("/dev/zero")
    r = run_capped("replay", "--suite", d, timeout=60)
    assert r.code == 2 and not r.traceback and "a.yaml" in r.err and "character device" in r.err, r.err[-800:]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_blocking(tmp_path):
    d = _suite(tmp_path)
    os.mkfifo(d / "b.yaml")
    r = run_capped("replay", "--suite", d, timeout=60)
    assert r.code == 2 and not r.traceback and "b.yaml" in r.err and "FIFO" in r.err, r.err[-800:]


def test_a_deeply_nested_file_is_an_error_naming_it(tmp_path):
    d = _suite(tmp_path)
    (d / "deep.yaml").write_text("[" * 20000 + "]" * 20000 + "\n")
    r = run_capped("replay", "--suite", d, timeout=120)
    assert r.code == 2 and not r.traceback and "deep.yaml" in r.err and "nested too deeply" in r.err, r.err[-800:]


@pytest.mark.parametrize("number, shown", [(".nan", "nan"), (".inf", "inf"), ("1.0e+309", "inf"), ("9" * 401, "401-digit")])
def test_a_number_out_of_range_is_named(tmp_path, number, shown):
    d = _suite(tmp_path)
    (d / "n.yaml").write_text(f"document: x\nexperiments:\n  - id: e1\n    value: {number}\n")
    r = run_capped("replay", "--suite", d, timeout=120)
    assert r.code == 2 and not r.traceback and "n.yaml: experiments[0].value" in r.err and shown in r.err, r.err[-800:]
