"""Utilisation series readers (knowledge/series): the plain CSV and Prometheus query_range answers
(fixtures written in the documented format, see series_fixtures/SOURCES.md), joined to VMs by name;
bad input names file, line (or entry) and field."""

from __future__ import annotations

import json
from datetime import UTC
from pathlib import Path

import numpy as np
import pytest

from knowledge.infra.errors import InputError
from knowledge.series import detect_series, read_series

pytestmark = pytest.mark.timeout(60)

FIX = Path(__file__).parent / "series_fixtures"
T0 = 1_700_000_000


def write_csv(path: Path, rows, header: str = "vm,timestamp,cpu_pct,mem_pct") -> Path:
    path.write_text(header + "\n" + "".join(",".join(str(x) for x in r) + "\n" for r in rows))
    return path


def test_plain_csv_lands_on_the_grid_in_any_order(tmp_path):
    rows = [(vm, T0 + 300 * t, 10 * t + i, 50) for t in range(4) for i, vm in enumerate(("a", "b"))]
    p = write_csv(tmp_path / "s.csv", rows[::-1])  # newest first
    store = read_series([p], ["a", "b", "c"])
    assert detect_series(p) == "series-csv"
    assert store.interval == 300 and store.steps == 4
    np.testing.assert_allclose(store.matrix("cpu_pct", np.array([0, 1])), [[0, 10, 20, 30], [1, 11, 21, 31]])
    assert store.files[0].vms == 2 and store.files[0].samples == 8
    assert np.isnan(store.matrix("cpu_pct", np.array([2]))).all()  # c has no series


def test_libvirt_exporter_cpu_seconds_and_memory_bytes_become_percent():
    p = FIX / "query_range-libvirt.json"
    assert detect_series(p) == "prometheus-json"
    # web-01: 2 vCPUs, 4 GiB; db-01: 4 vCPUs, 8 GiB (the inventory says so)
    store = read_series([p], ["db-01", "web-01"], vcpus=[4, 2], ram_mib=[8192, 4096])
    cpu = store.matrix("cpu_pct", np.array([0, 1]))
    doc = json.loads(p.read_text())
    web = [float(v) for _t, v in doc["data"]["result"][0]["values"]]
    expected_web = 100 * np.diff(web) / 300 / 2  # the counter's rate over 2 vCPUs, by hand
    np.testing.assert_allclose(cpu[1][~np.isnan(cpu[1])], expected_web, atol=0.01)
    np.testing.assert_allclose(cpu[0][~np.isnan(cpu[0])][:2], [50.0, 25.0], atol=0.01)  # 2.0, 1.0 of 4 cores
    mem = store.matrix("mem_pct", np.array([1]))[0]
    assert mem[0] == pytest.approx(25.0) and np.nanmax(mem) == pytest.approx(50.0)


def test_node_exporter_idle_seconds_and_memory_pair_and_instance_port_joins():
    store = read_series([FIX / "query_range-node.json"], ["APP-01.example.org"], vcpus=[2], ram_mib=[8192])
    cpu = store.matrix("cpu_pct", np.array([0]))[0]
    # idle rates per step (cpu0, cpu1) 0.9/0.7 -> busy 20 %, 0.1/0.1 -> 90 %
    assert cpu[~np.isnan(cpu)][0] == pytest.approx(20.0, abs=0.01)
    assert np.nanmax(cpu) == pytest.approx(90.0, abs=0.01)
    mem = store.matrix("mem_pct", np.array([0]))[0]
    assert np.nanmax(mem) == pytest.approx(75.0)  # 6 of 8 GiB used


@pytest.mark.parametrize("text, words", [
    ('{"status": "success", "data": {"resultType": "matrix", "result": [{"metric": {"domain": "a"}, "val',
     ["line 1 column", "truncated"]),
    ('{"status": "success", "data": {"resultType": "vector", "result": []}}', ["data.resultType", "query_range"]),
    ('{"status": "error", "errorType": "bad_data", "error": "parse error"}', ["status", "bad_data"]),
    ('{"status": "success", "data": {"resultType": "matrix", "result": [{"metric": {"__name__": "up", '
     '"instance": "a:9100"}, "values": [[1, "1"], [2, "1"]]}]}}', ["data.result[0]", "__name__", "'up'"]),
])
def test_bad_prometheus_answers_are_named(tmp_path, text, words):
    p = tmp_path / "answer.json"
    p.write_text(text)
    with pytest.raises(InputError) as e:
        read_series([p], ["a"], vcpus=[1], ram_mib=[1024])
    msg = str(e.value)
    assert str(p) in msg and all(w in msg for w in words), msg


@pytest.mark.parametrize("rows, header, words", [
    ([("a", T0, 250, 10), ("a", T0 + 300, 20, 10)], None, ["line 2", "field cpu_pct", "250", "not a percentage"]),
    ([("ghost", T0, 10, 10), ("ghost", T0 + 300, 20, 10)], None,
     ["none of its VMs is in the inventory", "'ghost' (line 2)"]),
    ([("a", T0 + 300 * t, 10, 10) for t in range(4)] + [("a", T0 + 1050, 20, 10)], None,
     ["line 6", "field timestamp", "300 s grid"]),
    ([("a", T0, 10)], "vm,timestamp,cpu_pct", ["line 1", "mem_pct"]),
    ([("a", T0, 10, 10), ("a", T0 + 300, "abc", 10)], None, ["line 3", "cpu_pct"]),
])
def test_bad_csv_names_file_line_and_field(tmp_path, rows, header, words):
    p = write_csv(tmp_path / "s.csv", rows, header or "vm,timestamp,cpu_pct,mem_pct")
    with pytest.raises(InputError) as e:
        read_series([p], ["a"])
    msg = str(e.value)
    assert str(p) in msg and all(w in msg for w in words), msg


def test_truncated_csv_and_mixed_intervals_across_files(tmp_path):
    p = tmp_path / "cut.csv"
    p.write_text(f"vm,timestamp,cpu_pct,mem_pct\na,{T0},10,10\na,{T0 + 300},1")
    with pytest.raises(InputError, match=r"cut.csv: line 3"):
        read_series([p], ["a"])
    five = write_csv(tmp_path / "five.csv", [("a", T0 + 300 * t, 10, 10) for t in range(3)])
    one = write_csv(tmp_path / "one.csv", [("b", T0 + 60 * t, 10, 10) for t in range(3)])
    with pytest.raises(InputError, match=r"one.csv: mixed intervals: samples every 60 s, but .*five.csv every 300 s"):
        read_series([five, one], ["a", "b"])


def test_an_inventory_file_is_not_a_series(tmp_path):
    p = tmp_path / "inv.csv"
    p.write_text("name,vcpus,ram_gib\na,2,4\n")
    assert detect_series(p) is None


def _iso(t: int, zone: str = "Z") -> str:
    from datetime import datetime, timedelta, timezone

    tz = UTC if zone in ("Z", "", "+00:00") else timezone(timedelta(hours=int(zone[:3])))
    text = datetime.fromtimestamp(t, tz).strftime("%Y-%m-%dT%H:%M:%S")
    return text + zone


@pytest.mark.parametrize("zone", ["Z", "+00:00", "+02:00", "-05:00", ""])
def test_iso_timestamps_with_a_zone_are_converted_to_utc(tmp_path, zone):
    # the same instants written in another zone (or with none: read as UTC) land on the same steps
    rows = [(vm, _iso(T0 + 300 * t, zone), 10 * t + i, 50) for t in range(4) for i, vm in enumerate(("a", "b"))]
    p = write_csv(tmp_path / "s.csv", rows)
    store = read_series([p], ["a", "b"])
    assert store.interval == 300 and store.steps == 4
    assert store.first_time() == T0
    np.testing.assert_allclose(store.matrix("cpu_pct", np.array([0, 1])), [[0, 10, 20, 30], [1, 11, 21, 31]])


def test_iso_timestamps_mixing_zones_and_none_agree(tmp_path):
    rows = [("a", _iso(T0, "Z"), 10, 50), ("a", _iso(T0 + 300, "+02:00"), 20, 50), ("a", _iso(T0 + 600, ""), 30, 50)]
    store = read_series([write_csv(tmp_path / "s.csv", rows)], ["a"])
    np.testing.assert_allclose(store.matrix("cpu_pct", np.array([0])), [[10, 20, 30]])


@pytest.mark.parametrize("bad, line", [("2026-13-01T00:00:00Z", 4), ("yesterday", 4), ("", 4),
                                       ("2026-11-01T00:10:00+25:00", 4)])
def test_a_bad_iso_timestamp_names_file_line_and_field_without_library_text(tmp_path, bad, line):
    rows = [("a", _iso(T0 + 300 * t), 10, 50) for t in range(2)] + [("a", bad, 10, 50)]
    p = write_csv(tmp_path / "s.csv", rows)
    with pytest.raises(InputError) as e:
        read_series([p], ["a"])
    msg = str(e.value)
    assert f"{p}: line {line}, field timestamp" in msg, msg
    assert not any(w in msg for w in ("CSV conversion", "column #", "Arrow", "scalar of type", "assume_timezone")), msg


def test_a_csv_of_fractions_is_read_as_percent_with_a_warning_naming_the_column(tmp_path):
    cpu = [0.1104, 0.1246, 0.2317, 0.0512]
    rows = [("a", T0 + 300 * t, x, 0.5) for t, x in enumerate(cpu)]
    p = write_csv(tmp_path / "frac.csv", rows)
    store = read_series([p], ["a"])
    # exact to the stored 0.01 %: read again x 100, not the hundredths of the first pass scaled
    np.testing.assert_allclose(store.matrix("cpu_pct", np.array([0]))[0], [11.04, 12.46, 23.17, 5.12], atol=0.006)
    np.testing.assert_allclose(store.matrix("mem_pct", np.array([0]))[0], [50.0] * 4)
    assert store.samples == 8 and store.files[0].samples == 4
    warnings = store.files[0].warnings
    assert any("field cpu_pct" in w and "fractions" in w for w in warnings), warnings
    assert any("field mem_pct" in w for w in warnings), warnings
    # a percent column with some values at most 1 is left as it is
    pct = write_csv(tmp_path / "pct.csv", [("a", T0 + 300 * t, x, 40) for t, x in enumerate([0.5, 0.2, 35.0, 1.0])])
    store = read_series([pct], ["a"])
    np.testing.assert_allclose(store.matrix("cpu_pct", np.array([0]))[0], [0.5, 0.2, 35.0, 1.0])
    assert store.files[0].warnings == []


def test_an_idle_cpu_beside_memory_in_percent_stays_percent(tmp_path):
    # one file is written in one unit: memory at 40-60 % says the CPU's 0.2-0.9 are real percentages of an
    # idle estate, not fractions (the collectors' rule, knowledge.inventory.common.fraction_fields)
    rows = [("a", T0 + 300 * t, x, m) for t, (x, m) in enumerate([(0.2, 40), (0.9, 60), (0.5, 55)])]
    store = read_series([write_csv(tmp_path / "idle.csv", rows)], ["a"])
    np.testing.assert_allclose(store.matrix("cpu_pct", np.array([0]))[0], [0.2, 0.9, 0.5])
    assert store.files[0].warnings == []


def test_series_of_vms_the_inventory_lacks_are_skipped_with_a_warning_naming_them(tmp_path):
    rows = [(vm, T0 + 300 * t, 20, 50) for t in range(3) for vm in ("a", "ghost-01", "b", "ghost-02")]
    p = write_csv(tmp_path / "s.csv", rows)
    store = read_series([p], ["a", "b"])
    assert store.files[0].vms == 2 and store.files[0].samples == 6
    np.testing.assert_allclose(store.matrix("cpu_pct", np.array([0, 1])), [[20] * 3] * 2)
    (w,) = store.files[0].warnings
    assert "2 VM name(s) not in the inventory" in w and "'ghost-01' (line 3)" in w and "'ghost-02' (line 5)" in w


def _answer(tmp_path: Path, name: str, series: dict[str, list[float]]) -> Path:
    result = [{"metric": {"instance": f"{vm}:9100"}, "values": [[T0 + 300 * t, str(x)] for t, x in enumerate(xs)]}
              for vm, xs in series.items()]
    p = tmp_path / name
    p.write_text(json.dumps({"status": "success", "data": {"resultType": "matrix", "result": result}}))
    return p


def test_prometheus_computed_fractions_and_unknown_instances(tmp_path):
    # a computed CPU expression in 0-1 (no __name__): read as fractions like the CSV, with a warning
    p = _answer(tmp_path, "cpu.json", {"a": [0.1, 0.25, 0.5], "stranger": [0.2, 0.2, 0.2]})
    store = read_series([p], ["a"])
    np.testing.assert_allclose(store.matrix("cpu_pct", np.array([0]))[0], [10, 25, 50])
    warnings = store.files[0].warnings
    assert any("computed cpu_pct series" in w and "fractions" in w for w in warnings), warnings
    assert any("'stranger:9100' (data.result[1])" in w and "skipped" in w for w in warnings), warnings
    # already in %: unchanged, no warning
    store = read_series([_answer(tmp_path, "cpu2.json", {"a": [10, 25, 50]})], ["a"])
    np.testing.assert_allclose(store.matrix("cpu_pct", np.array([0]))[0], [10, 25, 50])
    assert store.files[0].warnings == []
    # none of its VMs known: refused
    with pytest.raises(InputError, match=r"cpu3.json: none of its VMs is in the inventory \(1 VM name\(s\): 'stranger:9100' \(data.result\[0\]\)"):
        read_series([_answer(tmp_path, "cpu3.json", {"stranger": [10, 20]})], ["a"])


def test_an_iso_timestamp_after_epoch_seconds_names_its_line(tmp_path):
    rows = [("a", T0, 10, 10), ("a", T0 + 300, 10, 10), ("a", _iso(T0 + 600), 10, 10)]
    p = write_csv(tmp_path / "s.csv", rows)
    with pytest.raises(InputError) as e:
        read_series([p], ["a"])
    msg = str(e.value)
    assert f"{p}: line 4, field timestamp" in msg and "one form" in msg, msg
    assert "CSV conversion" not in msg and "column #" not in msg, msg


def _counters(tmp_path: Path, name: str, series: list[tuple[dict, list[float]]]) -> Path:
    result = [{"metric": labels, "values": [[T0 + 300 * t, str(x)] for t, x in enumerate(xs)]} for labels, xs in series]
    p = tmp_path / name
    p.write_text(json.dumps({"status": "success", "data": {"resultType": "matrix", "result": result}}))
    return p


def test_node_exporter_counts_iowait_and_steal_as_not_busy_like_the_node_mixin_rule(tmp_path):
    # 2 CPUs; per CPU and 300 s step: idle 150 s, iowait 60 s, steal 15 s, user 75 s -> busy 25 %, as
    # node-mixin's 1 - avg(rate(idle|iowait|steal)); counting only idle as not busy would give 50 %
    cpu = "node_cpu_seconds_total"
    series = [({"__name__": cpu, "instance": "db-01:9100", "cpu": str(c), "mode": mode}, [per * t for t in range(5)])
              for c in range(2) for mode, per in (("idle", 150), ("iowait", 60), ("steal", 15), ("user", 75))]
    store = read_series([_counters(tmp_path, "node.json", series)], ["db-01"], vcpus=[2])
    np.testing.assert_allclose(store.matrix("cpu_pct", np.array([0]))[0], [25.0] * 4)
    assert any("idle, iowait, steal" in n for n in store.files[0].notes)
    rule = [({"__name__": "instance:node_cpu_utilisation:rate5m", "instance": "db-01:9100"}, [0.25] * 5)]
    store = read_series([_counters(tmp_path, "rule.json", rule)], ["db-01"], vcpus=[2])
    np.testing.assert_allclose(store.matrix("cpu_pct", np.array([0]))[0], [25.0] * 5)  # the same figure


def test_a_computed_cpu_rate_in_busy_cores_is_found_declared_or_refused(tmp_path):
    # rate(libvirt_domain_info_cpu_time_seconds_total[5m]): busy cores, each VM under its vCPU count
    cores = {"web-01": [1.0, 2.0, 3.0], "db-01": [4.0, 6.0, 8.0]}
    store = read_series([_answer(tmp_path, "cpu_rate.json", cores)], ["web-01", "db-01"], vcpus=[4, 16])
    np.testing.assert_allclose(store.matrix("cpu_pct", np.array([0, 1])), [[25, 50, 75], [25, 37.5, 50]])
    (w,) = store.files[0].warnings
    assert "read as busy cores" in w and "divided by the VM's vCPUs" in w and "'pct'" in w
    # declared a percentage by its name: read as it stands, no warning
    store = read_series([_answer(tmp_path, "cpu_pct.json", cores)], ["web-01", "db-01"], vcpus=[4, 16])
    np.testing.assert_allclose(store.matrix("cpu_pct", np.array([0]))[0], [1, 2, 3])
    assert store.files[0].warnings == []
    # declared busy cores by its name, though a VM passes 1 nowhere near its vCPUs
    store = read_series([_answer(tmp_path, "cpu_cores.json", {"web-01": [2.0, 2.0]})], ["web-01"], vcpus=[8])
    np.testing.assert_allclose(store.matrix("cpu_pct", np.array([0]))[0], [25, 25])
    # the same rate x 100 (% of ONE core) passing 100 on a 4-vCPU VM: refused, naming the cause
    with pytest.raises(InputError, match=r"cpu_x100.json: data.result\[0\]: .*reaches 350 on a VM of 4 vCPUs: a % "
                                         r"of ONE core"):
        read_series([_answer(tmp_path, "cpu_x100.json", {"web-01": [100.0, 350.0]})], ["web-01"], vcpus=[4])


def test_repeated_timestamps_are_counted_and_named(tmp_path):
    # naive local times over the autumn daylight-saving change: 02:00-02:55 twice for each VM
    rows = [(vm, f"2026-10-25T{h:02d}:{m:02d}:00", 10, 40) for h in (1, 2, 2, 3) for m in range(0, 60, 5)
            for vm in ("a", "b")]
    p = write_csv(tmp_path / "dst.csv", rows)
    store = read_series([p], ["a", "b"])
    (w,) = store.files[0].warnings
    assert w.startswith("24 sample(s) repeat a step their VM already has (first: ") and "line 50, a at " \
        "2026-10-25T02:00:00Z" in w and "daylight-saving" in w, w
    # the same file without repeats: no warning; fractions read twice (a second pass) are no repeats
    rows = [(vm, T0 + 300 * t, 0.5, 0.4) for t in range(5) for vm in ("a", "b")]
    store = read_series([write_csv(tmp_path / "ok.csv", rows)], ["a", "b"])
    assert not any("repeat" in w for w in store.files[0].warnings), store.files[0].warnings


def test_an_hour_missing_for_every_vm_is_said_not_filled_silently(tmp_path):
    # closing note of #31 round 3: naive local times over the spring daylight-saving change (Europe,
    # 2026-03-29: 02:00 -> 03:00) have no 02:00-02:55 for any VM; those 12 steps were filled with each
    # VM's median without a word
    rows = [(vm, f"2026-03-29T{h:02d}:{m:02d}:00", 10, 40) for h in (0, 1, 3, 4) for m in range(0, 60, 5)
            for vm in ("a", "b")]
    store = read_series([write_csv(tmp_path / "spring.csv", rows)], ["a", "b"])
    (w,) = store.files[0].warnings
    assert w == ("12 step(s) have no cpu_pct sample of any of its VMs (first: 2026-03-29T02:00:00Z to "
                 "2026-03-29T02:55:00Z); each VM's median fills them; an hour missing at once, on a full hour in a "
                 "month of spring clock changes: it may be local time skipping one at the spring daylight-saving "
                 "change; give UTC or an offset"), w
    # review-inv: the same hour missing in July is no spring change, nor an hour starting at 02:30 in March
    for day, start in (("2026-07-12", (2, 0)), ("2026-03-29", (2, 30))):
        gap = {(start[0] + (start[1] + m) // 60, (start[1] + m) % 60) for m in range(0, 60, 5)}
        rows = [(vm, f"{day}T{h:02d}:{m:02d}:00", 10, 40) for h in range(6) for m in range(0, 60, 5)
                for vm in ("a", "b") if (h, m) not in gap]
        (w,) = read_series([write_csv(tmp_path / f"{day}.csv", rows)], ["a", "b"]).files[0].warnings
        assert w.startswith("12 step(s) have no cpu_pct sample") and "daylight" not in w, w
    # one VM's own gap is no file-wide gap (the coverage warnings name it); a 10-minute gap is said without DST
    rows = [(vm, T0 + 300 * t, 10, 40) for t in range(24) for vm in ("a", "b") if not (vm == "a" and t in (3, 4))]
    assert read_series([write_csv(tmp_path / "one.csv", rows)], ["a", "b"]).files[0].warnings == []
    rows = [(vm, T0 + 300 * t, 10, 40) for t in range(24) for vm in ("a", "b") if t not in (3, 4)]
    (w,) = read_series([write_csv(tmp_path / "ten.csv", rows)], ["a", "b"]).files[0].warnings
    assert w.startswith("2 step(s) have no cpu_pct sample") and "daylight" not in w, w


def test_stamps_with_a_zone_or_epoch_seconds_get_no_daylight_saving_hint(tmp_path):
    # final review of round 3 session 4: the spring hint ("it may be local time ... give UTC or an offset")
    # was also given to a file whose stamps carry Z or an offset, or are epoch seconds: they skip no hour
    from datetime import datetime

    def spring(stamp) -> list:  # 00:00-04:55 on the day of the European spring change, 02:00-02:55 missing
        return [(vm, stamp(h, m), 10, 40) for h in (0, 1, 3, 4) for m in range(0, 60, 5) for vm in ("a", "b")]

    naive = spring(lambda h, m: f"2026-03-29T{h:02d}:{m:02d}:00")
    zoned = {"utc.csv": spring(lambda h, m: f"2026-03-29T{h:02d}:{m:02d}:00Z"),
             "offset.csv": spring(lambda h, m: f"2026-03-29T{h:02d}:{m:02d}:00+00:00"),
             "epoch.csv": spring(lambda h, m: int(datetime(2026, 3, 29, h, m, tzinfo=UTC).timestamp()))}
    mixed = naive[:24] + zoned["utc.csv"][24:]  # one stamp without a zone is enough to say it
    for name, rows in (("naive.csv", naive), ("mixed.csv", mixed), *zoned.items()):
        (w,) = read_series([write_csv(tmp_path / name, rows)], ["a", "b"]).files[0].warnings
        assert w.startswith("12 step(s) have no cpu_pct sample of any of its VMs (first: 2026-03-29T02:00:00Z to "
                            "2026-03-29T02:55:00Z); each VM's median fills them"), (name, w)
        assert ("daylight-saving" in w) == (name in ("naive.csv", "mixed.csv")), (name, w)
    # an hour repeated: a daylight-saving change only where the stamps carry no zone
    rows = [(vm, f"2026-10-25T{h:02d}:{m:02d}:00Z", 10, 40) for h in (1, 2, 2, 3) for m in range(0, 60, 5)
            for vm in ("a", "b")]
    (w,) = read_series([write_csv(tmp_path / "twice.csv", rows)], ["a", "b"]).files[0].warnings
    assert w.startswith("24 sample(s) repeat a step their VM already has (first: ") and w.endswith(
        "the later one is kept: the same data twice?"), w


def test_a_semicolon_csv_is_read_and_an_ip_instance_and_an_off_grid_iso_time_say_why(tmp_path):
    # a European spreadsheet's CSV: ';' separators, decimal commas: read as such, with a note
    p = tmp_path / "excel.csv"
    p.write_text("vm;timestamp;cpu_pct;mem_pct\n" + "".join(f"web-01;{_iso(T0 + 300 * t)};8,{t:02d};40,5\n"
                                                          for t in range(4)))
    assert detect_series(p) == "series-csv"
    store = read_series([p], ["web-01"])
    np.testing.assert_allclose(store.matrix("cpu_pct", np.array([0]))[0], [8.0, 8.01, 8.02, 8.03])
    np.testing.assert_allclose(store.matrix("mem_pct", np.array([0]))[0], [40.5] * 4)
    assert any("separated by ';' with decimal commas" in n for n in store.files[0].notes)
    p.write_text("vm;timestamp;cpu_pct;mem_pct\n" + f"web-01;{T0};8,02;40\nweb-01;{T0 + 300};x;40\n")
    with pytest.raises(InputError, match=r"excel.csv: line 3, field cpu_pct: 'x' is not a number"):
        read_series([p], ["web-01"])
    with pytest.raises(InputError, match=r"they are IP addresses .*nodename"):
        read_series([_answer(tmp_path, "cpu.json", {"10.0.0.10": [10, 20]})], ["web-01"])
    rows = [("a", _iso(T0 + 300 * t), 10, 10) for t in range(5)] + [("a", _iso(T0 + 1620), 10, 10)]
    with pytest.raises(InputError) as e:
        read_series([write_csv(tmp_path / "s.csv", rows)], ["a"])
    assert f"line 7, field timestamp: {_iso(T0 + 1620)} is not on the 300 s grid" in str(e.value)


def test_a_libvirt_counter_jump_names_the_sample_not_a_unit(tmp_path):
    labels = {"__name__": "libvirt_domain_info_cpu_time_seconds_total", "domain": "web-01"}
    p = _counters(tmp_path, "lv.json", [(labels, [0, 300, 600, 1e300, 1e300 + 300])])
    with pytest.raises(InputError) as e:
        read_series([p], ["web-01"], vcpus=[2])
    msg = str(e.value)
    assert "data.result[0], values[3]: the CPU seconds counter grows by" in msg and "MHz or bytes" not in msg, msg


def test_a_file_cut_after_a_whole_field_count_is_read_with_a_warning(tmp_path):
    p = tmp_path / "cut.csv"
    p.write_text(f"vm,timestamp,cpu_pct,mem_pct\na,{T0},10,10\na,{T0 + 300},12,11\na,{T0 + 600},19.91,")
    store = read_series([p], ["a"])
    assert store.files[0].warnings == ["line 4 (the last) has no line end: the file may be cut short (an export or "
                                       "copy that stopped); its series may end early"]
    p.write_text(f"vm,timestamp,cpu_pct,mem_pct\na,{T0},0.1,10\na,{T0 + 300},0.12,11\na,{T0 + 600},0.2,")
    assert any("no line end" in w for w in read_series([p], ["a"]).files[0].warnings)  # read twice (fractions)
    p.write_text(f"vm,timestamp,cpu_pct,mem_pct\na,{T0},10,10\na,{T0 + 300},12,11\n")
    assert read_series([p], ["a"]).files[0].warnings == []
