"""The filter proxy of the knowledge-base browser and the sites table: the rows' texts are made once
per change of the source model (issue #30: a keystroke must not re-read every cell), and a change of
the rows is never answered from the old texts."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

pytestmark = pytest.mark.timeout(60)


@dataclass
class Row:
    name: str
    kind: str
    value: float


def _shown(proxy) -> list[str]:
    return sorted(proxy.index(i, 0).data() for i in range(proxy.rowCount()))


def test_filter_matches_every_word_in_any_column(qapp):
    from ui.tablemodels import FilterProxy, RecordTableModel

    model = RecordTableModel(("name", "kind", "value"))
    model.set_rows([Row("alpha", "ssd", 1.5), Row("beta", "hdd", 2.0), Row("gamma", "SSD", 10.0)])
    proxy = FilterProxy()
    proxy.setSourceModel(model)
    proxy.set_text("ssd")
    assert _shown(proxy) == ["alpha", "gamma"]
    proxy.set_text("ssd 10")
    assert _shown(proxy) == ["gamma"]
    proxy.set_text("")
    assert _shown(proxy) == ["alpha", "beta", "gamma"]


def test_new_rows_are_searched_not_the_old_texts(qapp):
    from ui.tablemodels import FilterProxy, RecordTableModel

    model = RecordTableModel(("name", "kind", "value"))
    model.set_rows([Row("alpha", "ssd", 1.0)])
    proxy = FilterProxy()
    proxy.setSourceModel(model)
    proxy.set_text("nvme")
    assert _shown(proxy) == []
    model.set_rows([Row("delta", "nvme", 3.0), Row("eps", "hdd", 4.0), Row("zeta", "nvme", 5.0)])
    assert _shown(proxy) == ["delta", "zeta"]
    model.set_rows([Row("eta", "hdd", 1.0)])
    assert _shown(proxy) == []


def test_texts_are_made_once_per_change_of_the_rows(qapp, monkeypatch):
    from ui.tablemodels import FilterProxy, RecordTableModel

    model = RecordTableModel(("name", "kind", "value"))
    model.set_rows([Row(f"vm{i}", "ssd" if i % 2 else "hdd", float(i)) for i in range(200)])
    proxy = FilterProxy()
    proxy.setSourceModel(model)
    calls = []
    real = model.row_texts
    monkeypatch.setattr(model, "row_texts", lambda: calls.append(1) or real())
    for text in ("s", "ss", "ssd", "ssd vm1", "ssd vm19"):
        proxy.set_text(text)
    assert len(calls) == 1
    assert _shown(proxy) == sorted(f"vm{i}" for i in range(200) if i % 2 and "vm19" in f"vm{i}")
    model.set_rows([Row("x", "ssd", 1.0)])
    proxy.set_text("ssd")
    assert len(calls) == 2 and _shown(proxy) == ["x"]
