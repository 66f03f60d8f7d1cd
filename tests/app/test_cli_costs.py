"""`capadvisor costs ...` and `advise --catalogue` through the real CLI entry point, with the
user database in the test's own folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from tests.app import test_cli_kb

kb_path = test_cli_kb.kb_path  # fixture: the compiled knowledge base

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "scenario.yaml"
CATALOGUE = ROOT / "resources" / "examples" / "costs-example.yaml"


@pytest.fixture()
def run(capsys, monkeypatch):
    # the tables fit the terminal: a fixed width, whatever terminal (or test worker) runs the suite
    monkeypatch.setenv("COLUMNS", "200")

    def _run(*args):
        code = main(list(args))
        out = capsys.readouterr()
        return code, out.out, out.err
    return _run


def test_import_list_show_export_remove_clear(run, tmp_path):
    code, out, _ = run("costs", "list")
    assert code == 0 and "no cost catalogue stored yet" in out
    code, _, err = run("costs", "import", str(CATALOGUE))
    assert code == 0 and "3 host models, 3 storage, 5 licences" in err and "11 entries are examples" in err
    code, out, _ = run("costs", "list")
    assert "Example 2U 2x20c 384G (example)" in out and "14,000 EUR; 450 W; 2 U" in out
    assert "VMware ESXi, per core (at least 16 cores per CPU)" in out
    code, out, _ = run("costs", "show", "Example NFS filer", "--format", "json")
    assert json.loads(out)["price_per_tb"] == 250
    code, _, err = run("costs", "remove", "licence", "Example XenServer subscription")
    assert code == 0
    code, _, err = run("costs", "remove", "licence", "Example XenServer subscription")
    assert code == 2 and "no licences entry named 'Example XenServer subscription'" in err
    out_file = tmp_path / "mine.yaml"
    assert run("costs", "export", str(out_file))[0] == 0
    text = out_file.read_text()
    assert text.startswith("# Capacity Advisor cost catalogue") and "XenServer subscription" not in text
    code, out, _ = run("costs", "check", str(out_file))
    assert code == 0 and "valid cost catalogue" in out and "4 licences" in out
    assert run("costs", "clear", "--yes")[0] == 0
    assert "no cost catalogue stored yet" in run("costs", "list")[1]
    code, _, err = run("costs", "show")
    assert code == 2 and "costs import FILE" in err


def test_a_bad_file_is_refused_naming_file_and_field_and_nothing_is_stored(run, tmp_path):
    assert run("costs", "example", "--import")[0] == 0
    bad = tmp_path / "bad.yaml"
    bad.write_text("hosts:\n  - {name: a, cpu: {sockets: 2, cores_per_socket: 8}, ram_gib: 64, price: cheap, "
                   "power_w: 100}\n")
    code, _, err = run("costs", "import", str(bad))
    assert code == 2
    assert f"{bad}: invalid cost catalogue" in err and "hosts[0].price: must be a number" in err
    code, out, _ = run("costs", "list", "--format", "json")
    assert json.loads(out)["name"] == "Example catalogue (placeholder prices)"  # the stored one is untouched


def test_merge_adds_and_replaces_entries(run, tmp_path):
    run("costs", "import", str(CATALOGUE))
    extra = tmp_path / "extra.yaml"
    extra.write_text("name: extra\nlicences:\n  - {name: Example supported KVM distribution, hypervisor: KVM, "
                     "per: host, per_year: 1}\n  - {name: Xen support, hypervisor: Xen, per: host, per_year: 2}\n")
    assert run("costs", "import", str(extra), "--merge")[0] == 0
    data = json.loads(run("costs", "list", "--format", "json")[1])
    assert len(data["hosts"]) == 3 and len(data["licences"]) == 6
    kvm = next(x for x in data["licences"] if x["name"] == "Example supported KVM distribution")
    assert kvm["per"] == "host"


def test_advise_prices_with_the_stored_or_given_catalogue(run, kb_path, tmp_path):
    code, out, err = run("advise", "--kb", str(kb_path), str(EXAMPLE))
    assert code == 0, err
    assert json.loads(out)["cost"] is None  # no catalogue yet: nothing priced, nothing invented
    code, out, err = run("advise", "--kb", str(kb_path), str(EXAMPLE), "--catalogue", str(CATALOGUE))
    assert code == 0, err
    given = json.loads(out)["cost"]
    assert given["catalogue"] == "Example catalogue (placeholder prices)" and given["total"] > 0
    assert given["design"]["host_model"] == "Example 2U 2x20c 384G"
    assert any(a["text"].startswith("VMware ESXi: +") for a in given["alternatives"])
    run("costs", "import", str(CATALOGUE))
    stored = json.loads(run("advise", "--kb", str(kb_path), str(EXAMPLE))[1])["cost"]
    assert stored["total"] == given["total"]
    assert json.loads(run("advise", "--kb", str(kb_path), str(EXAMPLE), "--no-catalogue")[1])["cost"] is None
    code, out, _ = run("advise", "--kb", str(kb_path), str(EXAMPLE), "--format", "md")
    assert "## Cost" in out and "over 5 years" in out
