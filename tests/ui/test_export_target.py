"""Issue #29 point 9: File > Export configuration... starts at the advised hypervisor's target (Xen
advised: the Xen target), or says why it starts at libvirt."""

from __future__ import annotations

from types import SimpleNamespace

from ui.dialogs.export_config import ExportConfigDialog, advised_target


def _advice(choice):
    rec = SimpleNamespace(choice=choice)
    return SimpleNamespace(first=lambda decision, scope=None: rec if decision == "hypervisor" else None,
                           scenario=SimpleNamespace(name="lab"))


def test_the_target_follows_the_advised_hypervisor():
    assert advised_target(_advice("xen"))[0] == "xen"
    assert advised_target(_advice("kvm"))[0] == "libvirt"
    key, why = advised_target(_advice("vmware esxi"))
    assert key == "libvirt" and "vmware esxi" in why and "none of the targets" in why


def test_the_dialog_starts_at_the_advised_target(qtbot, session, monkeypatch):
    monkeypatch.setattr(session, "advice", _advice("xen"))
    dialog = ExportConfigDialog(session)
    qtbot.addWidget(dialog)
    assert dialog.target.currentData() == "xen"
    assert "chose xen" in dialog.log.toPlainText()


def test_the_reserve_hosts_read_as_part_of_the_count():
    """Issue #29 point 9: "6 (+1 reserve)" read as 7 hosts; the 6 include the reserve."""
    from advisor.figures.summary import scenario_inputs
    from advisor.scenario import parse_scenario
    from ui.demo import demo_data

    data = demo_data()
    data["hosts"]["count"], data["hosts"]["reserve"] = 6, 1
    assert scenario_inputs(parse_scenario(data))["Hosts (reserve)"] == "6 (1 of them reserve)"


def test_an_unpriced_design_has_no_zero_cost_headline():
    """Issue #29 point 9: a host model without a price left "Cost: 0 EUR over 5 years"."""
    from advisor.cost import CostLine, DesignCost
    from advisor.figures.summary import cost_summary, priced

    cost = DesignCost("my prices", "EUR", 5.0, lines=[CostLine("licence", "kvm", 4, "hosts", 0.0, 0.0)],
                      notes=["host model 'big' has no price"])
    text = cost_summary(SimpleNamespace(cost=cost))
    assert not priced(cost) and "0 EUR" not in text
    assert text == "Cost: not priced (host model 'big' has no price)"
    cost.lines.append(CostLine("hosts", "big", 4, "hosts", 40000.0, 2000.0))
    assert priced(cost) and cost_summary(SimpleNamespace(cost=cost)).startswith("Cost: 50,000 EUR")
