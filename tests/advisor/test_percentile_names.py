"""One name for the 100th percentile (close-session4, "Still missing": "p100 and peak are both
accepted"). ``peak`` is the canonical key of ``cpu_busy_percentiles`` (what every importer writes); a
``p100`` key was read as the same point, so a table holding both with different shares was accepted
silently and the share sized on was whichever sorted first. It is now refused, naming the valid keys.
The percentile chosen is a number from 1 to 100 everywhere (``--percentile``, ``preferences.
sizing_percentile``, the import dialog's box; 100 is the peak); ``--percentile`` and ``preferences.
sizing_percentile`` also take ``peak`` for 100 (session 6), and another word is refused naming both."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from advisor.scenario import parse_scenario
from advisor.scenario.model import percentile_key, percentile_of
from app.cli import main
from knowledge.infra.errors import InputError

pytestmark = pytest.mark.timeout(120)

ROOT = Path(__file__).resolve().parents[2]
NX = ROOT / "tests" / "fixtures" / "inventory" / "collectors" / "nutanix-collector.xlsx"


def _scenario(table: dict[str, float], percentile: float) -> dict:
    data = yaml.safe_load((ROOT / "resources" / "examples" / "scenario.yaml").read_text())
    w = data["workloads"][0]
    w.update(cpu_busy_percentiles=table, cpu_busy_share=table.get("p95", 0.3),
             measured=[*w.get("measured", []), "cpu_busy_share", "cpu_busy_percentiles"])
    data.setdefault("preferences", {})["sizing_percentile"] = percentile
    return data


def test_the_100th_percentile_has_one_key_name():
    assert percentile_key(100) == "peak" and percentile_of("peak") == 100.0
    assert percentile_of("p100") is None and percentile_of("p100.0") is None
    assert percentile_of("p99.9") == 99.9


@pytest.mark.parametrize("key", ["p100", "p100.0"])
def test_a_p100_key_is_refused_naming_the_valid_keys(key):
    with pytest.raises(InputError) as err:
        parse_scenario(_scenario({"p95": 0.3, key: 0.5, "peak": 0.9}, 100), "s.yaml")
    assert (f"cpu_busy_percentiles.{key}: must be named p<percentile> below 100 (p50, p95, p99.9) or peak; the "
            "100th percentile is named peak") in str(err.value)


def test_peak_at_100_sizes_on_the_peak():
    sc = parse_scenario(_scenario({"p95": 0.3, "peak": 0.9}, 100), "s.yaml")
    assert sc.workloads[0].cpu_busy_share == pytest.approx(0.9)


@pytest.mark.parametrize("word", ["p100", "top"])
def test_the_cli_takes_a_number_or_peak_and_says_so_for_another_word(capsys, word):
    with pytest.raises(SystemExit) as ex:
        main(["inventory", str(NX), "--percentile", word, "--no-advise"])
    assert ex.value.code == 2
    err = capsys.readouterr().err
    assert (f"--percentile: '{word}' is not a number: give a percentile from 1 to 100 or peak (the 100th)"
            in err), err


def test_the_cli_takes_peak_as_the_100th(capsys):
    """Was: ``--percentile peak`` refused, though peak is the 100th's name everywhere else."""
    docs = []
    for q in ("100", "peak"):
        assert main(["inventory", str(NX), "--percentile", q, "--no-advise", "--format", "json"]) == 0
        docs.append(json.loads(capsys.readouterr().out))
    assert docs[0] == docs[1]
    assert docs[0]["scenario"]["preferences"]["sizing_percentile"] == 100
    for w in docs[0]["scenario"]["workloads"]:
        if "cpu_busy_percentiles" in w:
            assert w["cpu_busy_share"] == w["cpu_busy_percentiles"]["peak"]


def test_a_scenario_takes_peak_as_its_sizing_percentile():
    """Was: ``sizing_percentile: peak`` refused with the generic "must be a number, not 'peak'"."""
    sc = parse_scenario(_scenario({"p95": 0.3, "peak": 0.9}, "peak"), "s.yaml")  # type: ignore[arg-type]
    assert sc.preferences.sizing_percentile == 100.0
    assert sc.workloads[0].cpu_busy_share == pytest.approx(0.9)


@pytest.mark.parametrize("word", ["p100", "top", "Peak"])
def test_another_word_is_refused_naming_what_the_field_takes(word):
    with pytest.raises(InputError) as err:
        parse_scenario(_scenario({"p95": 0.3, "peak": 0.9}, word), "s.yaml")  # type: ignore[arg-type]
    assert f"preferences.sizing_percentile: must be a number from 1 to 100 or peak, not '{word}'" in str(err.value)


def test_advise_on_a_scenario_sized_at_peak_is_advise_at_100(tmp_path, capsys):
    docs = []
    for q in (100, "peak"):
        path = tmp_path / f"s-{q}.yaml"
        path.write_text(yaml.safe_dump(_scenario({"p95": 0.3, "peak": 0.9}, q)))  # type: ignore[arg-type]
        assert main(["advise", str(path), "--format", "json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        doc.pop("elapsed_s", None)
        docs.append(doc)
    assert docs[0] == docs[1]
