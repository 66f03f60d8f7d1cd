"""File ▸ Import inventory… with utilisation series beside the estate export (#31, review finding 11):
the dialog reads them with the engine call ``capadvisor inventory INVENTORY... SERIES...`` makes,
shows what the sizing used, sizes on the percentile chosen in the dialog, and a file of neither kind
is refused naming the series formats too. Real MainWindow, real files written to tmp_path, offscreen."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.ui.test_inventory_dialog import open_import

#: four spiky VMs whose peaks never coincide (each busy one step in ten), two steady ones
VMS = ["spk-01", "spk-02", "spk-03", "spk-04", "steady-01", "steady-02"]


def write_estate(tmp_path: Path) -> list[Path]:
    """The inventory template (VMs and hosts) and a 5-minute CPU/memory series of its VMs."""
    vms = tmp_path / "vms.csv"
    vms.write_text("name,vcpus,ram_gib,disk_gb,host,cluster\n"
                   + "".join(f"{n},8,32,100,h{1 + i % 2},c1\n" for i, n in enumerate(VMS)))
    hosts = tmp_path / "hosts.csv"
    hosts.write_text("host,sockets,cores_per_socket,ram_gib,threads_per_core,ghz,cluster\n"
                     "h1,1,8,256,2,2.5,c1\nh2,1,8,256,2,2.5,c1\n")
    series = tmp_path / "series.csv"
    rows = ["vm,timestamp,cpu_pct,mem_pct"]
    for step in range(288):  # one day
        stamp = f"2026-11-01T{step * 5 // 60:02d}:{step * 5 % 60:02d}:00"
        for i, n in enumerate(VMS):
            busy = (90.0 if step % 10 == i else 5.0) if n.startswith("spk") else 20.0
            rows.append(f"{n},{stamp},{busy},{40 + i}")
    series.write_text("\n".join(rows) + "\n")
    return [vms, hosts, series]


def cli_shares(paths: list[Path], percentile: int, capsys) -> dict[str, float]:
    """Each workload's CPU busy share as ``capadvisor inventory ... --percentile N`` writes it."""
    from app.cli import main

    assert main(["inventory", *map(str, paths), "--percentile", str(percentile), "--no-advise",
                 "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    return {w["name"]: w["cpu_busy_share"] for w in doc["scenario"]["workloads"]}


@pytest.mark.timeout(180)
def test_import_inventory_reads_series_beside_the_export_and_sizes_on_the_percentile(qtbot, window, tmp_path,
                                                                                      capsys):
    paths = write_estate(tmp_path)
    dialog = open_import(qtbot, window, paths)
    assert dialog.inventory is not None, dialog.message.text()
    assert not dialog.message.isVisible()
    assert dialog.inventory.series is not None and dialog.percentile_row.isVisible()
    assert dialog.percentile.value() == 95  # the scenario's default (preferences.sizing_percentile)
    assert "Utilisation series: series.csv (6 VMs)" in dialog.found.text()
    assert "p95 of the summed series of 6 VMs" in dialog.found.text()
    today = dialog.model.index(0, 5).data()
    assert "p95 of the summed series" in today and "6 of 6 VMs measured" in today

    at95 = {w["name"]: w["cpu_busy_share"] for w in dialog.scenario_data()["workloads"]}
    assert at95 == cli_shares(paths, 95, capsys)  # the CLI's engine call, the same numbers
    with qtbot.waitSignal(dialog.task.sig_done, timeout=60000):
        dialog.percentile.setValue(50)  # the spin box in the dialog: sized again in the worker, nothing re-read
    assert dialog.use_button.isEnabled() and dialog.percentile.value() == 50
    data = dialog.scenario_data()
    at50 = {w["name"]: w["cpu_busy_share"] for w in data["workloads"]}
    assert at50 == cli_shares(paths, 50, capsys)
    assert all(at50[k] < at95[k] for k in at95)  # the spikes do not count at the median
    assert data["preferences"]["sizing_percentile"] == 50
    assert "p50 of the summed series" in dialog.found.text() and "p50" in dialog.model.index(0, 5).data()

    doc = window.session.document
    with qtbot.waitSignal(window.session.sig_advice, timeout=60000):
        dialog.accept()
    assert doc.scenario.preferences.sizing_percentile == 50
    assert doc.data["estate"]["series"]["files"][0]["file"].endswith("series.csv")
    doc.undo_stack.setClean()


@pytest.mark.timeout(120)
def test_a_file_of_neither_kind_is_refused_naming_the_series_formats_too(qtbot, window, tmp_path):
    vms, _hosts, _series = write_estate(tmp_path)
    odd = tmp_path / "notes.csv"
    odd.write_text("colour,weight\nred,3\n")
    dialog = open_import(qtbot, window, [vms, odd])
    assert dialog.inventory is None and dialog.message.isVisible()
    text = dialog.message.text()
    assert "notes.csv: format not recognised" in text and "RVTools" in text
    assert "utilisation series" in text and "vm, timestamp, cpu_pct, mem_pct" in text and "query_range" in text
    dialog.reject()


@pytest.mark.timeout(120)
def test_series_alone_ask_for_the_inventory_they_measure(qtbot, window, tmp_path):
    *_, series = write_estate(tmp_path)
    dialog = open_import(qtbot, window, [series])
    assert dialog.inventory is None
    assert "only utilisation series given (series.csv)" in dialog.message.text()
    dialog.reject()


@pytest.mark.timeout(120)
def test_dropped_series_go_to_the_inventory_import_with_the_export(qtbot, window, tmp_path):
    from advisor.files import classify_file

    paths = write_estate(tmp_path)
    assert classify_file(paths[2]).kind == "series"  # not taken for benchmark output or a scenario
    dialog = window.handle_dropped(paths)
    assert dialog is not None
    qtbot.waitUntil(lambda: dialog.inventory is not None or dialog.message.isVisible(), timeout=60000)
    assert dialog.inventory is not None and dialog.inventory.series is not None, dialog.message.text()
    dialog.reject()


@pytest.mark.timeout(120)
def test_a_collector_with_only_average_and_peak_offers_no_percentile(qtbot, window):
    path = Path(__file__).resolve().parents[1] / "fixtures" / "inventory" / "collectors" / "liveoptics.xlsx"
    dialog = open_import(qtbot, window, [path])
    assert dialog.inventory is not None, dialog.message.text()
    assert dialog.inventory.series is None  # the workbook's peaks are read with the workbook, once
    model = dialog.table.model()
    cells = [str(model.data(model.index(r, 5))) for r in range(model.rowCount())]
    assert any("the VMs' peaks" in c for c in cells), cells
    assert not dialog.percentile_row.isVisible()  # sized on the peaks: no percentile to choose
    dialog.reject()


def record_sum_threads(monkeypatch) -> list[bool]:
    """For each sum of the series from now on, whether it ran on the GUI (main) thread."""
    import threading

    from advisor.inventory.series import SeriesSizing

    threads: list[bool] = []
    compute = SeriesSizing.compute

    def recording(self, inv):
        threads.append(threading.current_thread() is threading.main_thread())
        return compute(self, inv)

    monkeypatch.setattr(SeriesSizing, "compute", recording)
    return threads


@pytest.mark.timeout(180)
def test_group_by_merge_and_split_sum_the_series_in_the_worker(qtbot, window, tmp_path, monkeypatch):
    # closing note of #31 round 3: Group by / Merge / Split reduced the utilisation series again on the
    # GUI thread (seconds for a large estate, the window frozen); they go to the worker, as the percentile
    dialog = open_import(qtbot, window, write_estate(tmp_path))
    assert dialog.inventory is not None and dialog.inventory.series is not None, dialog.message.text()
    threads = record_sum_threads(monkeypatch)
    with qtbot.waitSignal(dialog.task.sig_done, timeout=60000):
        dialog.group_by.setCurrentIndex(dialog.group_by.findData("name-prefix"))
        # review r4: its Stop said "The files could not be imported" and left every control off for good
        assert dialog.task.running and dialog.progress_row.isVisible() and not dialog.cancel_read.isVisible()
    names = [dialog.model.index(r, 0).data() for r in range(dialog.model.rowCount())]
    assert len(names) == 2 and dialog.use_button.isEnabled()  # spk-*, steady-*
    assert "of the summed series" in dialog.model.index(0, 5).data()
    dialog.select_rows([0, 1])
    with qtbot.waitSignal(dialog.task.sig_done, timeout=60000):
        dialog.merge_selected()
    assert dialog.model.rowCount() == 1 and dialog.selected_rows() == [0]  # the merged group, selected
    assert "6 of 6 VMs measured" in dialog.model.index(0, 5).data()
    with qtbot.waitSignal(dialog.task.sig_done, timeout=60000):
        dialog.split_selected("name-prefix")
    assert dialog.model.rowCount() == 2 and dialog.selected_rows() == [0, 1]
    assert threads and not any(threads), threads  # every reduction ran in the worker


@pytest.mark.timeout(180)
def test_a_repaint_during_the_re_sum_sums_nothing_on_the_gui_thread(qtbot, window, tmp_path, monkeypatch):
    # final review of round 3 session 4: a group sized on a collector's percentiles (Nutanix p95) read
    # its text through the series on every repaint, so a repaint while the worker re-summed them ran
    # the same sum on the GUI thread, beside the worker, on the same inventory
    series = tmp_path / "series.csv"
    rows = ["vm,timestamp,cpu_pct,mem_pct"]
    rows += [f"web-01,2026-11-01T{s * 5 // 60:02d}:{s * 5 % 60:02d}:00,{20 + s % 7},40" for s in range(288)]
    series.write_text("\n".join(rows) + "\n")
    nutanix = Path("tests/fixtures/inventory/collectors/nutanix-collector.xlsx").resolve()
    dialog = open_import(qtbot, window, [nutanix, series])
    assert dialog.inventory is not None, dialog.message.text()
    threads = record_sum_threads(monkeypatch)
    with qtbot.waitSignal(dialog.task.sig_done, timeout=60000):
        dialog.group_by.setCurrentIndex(dialog.group_by.findData("name-prefix"))
        for r in range(dialog.model.rowCount()):  # what a repaint of the table asks meanwhile
            dialog.model.data(dialog.model.index(r, 5))
    assert threads and not any(threads), threads
