"""The scenario's field table is the one declaration of its fields: the reader, the dataclasses,
the GUI form and the format document follow it."""

from __future__ import annotations

import dataclasses

import pytest

from advisor.scenario import FIELDS, parse_scenario
from advisor.scenario.fields import BY_PATH, CHILDREN, VALUE_KINDS
from advisor.scenario.model import IOProfile, Preferences, Realtime, RtTask, Scenario, SharedStorage, Workload
from knowledge.host_types import Cpu, Disk
from knowledge.infra.errors import InputError

pytestmark = pytest.mark.timeout(60)

#: the dataclass of each mapping of the file
CLASSES = {"": Scenario, "hosts.cpu": Cpu, "hosts.disks": Disk, "hosts.shared_storage": SharedStorage,
           "workloads": Workload, "workloads.io": IOProfile, "workloads.realtime": Realtime,
           "workloads.realtime.tasks": RtTask, "preferences": Preferences}


@pytest.mark.parametrize("mapping", sorted(CLASSES))
def test_every_value_field_is_an_attribute_with_the_rows_default(mapping):
    attrs = {f.name: f for f in dataclasses.fields(CLASSES[mapping])}
    for key in CHILDREN[mapping]:
        row = BY_PATH[f"{mapping}.{key}" if mapping else key]
        assert key in attrs, f"{row.path}: no attribute {key} in {CLASSES[mapping].__name__}"
        if row.kind in VALUE_KINDS and not row.required and attrs[key].default is not dataclasses.MISSING:
            assert attrs[key].default == row.default, row.path


def test_every_row_is_in_a_mapping_of_the_table():
    for f in FIELDS:
        assert f.parent == "" or BY_PATH[f.parent].kind in ("section", "list"), f.path


def _minimal() -> dict:
    return {"hosts": {"cpu": {"cores_per_socket": 8}, "ram_gib": 64}, "workloads": [{"name": "w"}]}


@pytest.mark.parametrize("row", [f for f in FIELDS if f.kind in ("int", "float") and f.maximum is not None],
                         ids=lambda f: f.path)
def test_the_reader_refuses_a_number_above_its_rows_bound(row):
    """Every bound of the table is the one the reader applies (a row is the reader's rule)."""
    data = _minimal()
    node = data
    parts = row.path.split(".")
    for depth, part in enumerate(parts[:-1]):
        path = ".".join(parts[:depth + 1])
        if BY_PATH[path].kind == "list":
            node = node.setdefault(part, [{}]) if part != "workloads" else node[part]
            node = node[0]
            if path == "workloads.realtime.tasks":
                node.update(period=10, wcet=1)
        else:
            node = node.setdefault(part, {})
    node[parts[-1]] = row.maximum * 2 + 1
    with pytest.raises(InputError) as err:
        parse_scenario(data)
    shown = int(row.maximum) if float(row.maximum).is_integer() else row.maximum
    assert f".{parts[-1]}: must be <= {shown}" in str(err.value) or f"{parts[-1]}: must be <= {shown}" in str(err.value)


def test_the_committed_format_document_is_what_the_table_generates():
    """docs/scenario-format.md is generated from the table: edit the table, then run
    ``python -m advisor.scenario.doc``."""
    from advisor.scenario import doc

    assert doc.DOC.read_text(encoding="utf-8") == doc.render(), "run: python -m advisor.scenario.doc"
    assert doc.main(["--check"]) == 0
    for f in FIELDS:  # every field is in it, with its tip
        assert f"| `{f.key}` |" in doc.render() and f.tip.split("(")[0].strip()[:30] in doc.render(), f.path


def test_the_check_fails_when_the_document_differs(tmp_path, monkeypatch, capsys):
    from advisor.scenario import doc

    stale = tmp_path / "scenario-format.md"
    stale.write_text(doc.render().replace("Physical cores per socket", "Cores"), encoding="utf-8")
    monkeypatch.setattr(doc, "DOC", stale)
    assert doc.main(["--check"]) == 1 and "differs from the field table" in capsys.readouterr().err
    assert doc.main([]) == 0 and doc.main(["--check"]) == 0
