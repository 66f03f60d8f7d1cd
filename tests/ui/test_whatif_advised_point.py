"""The what-if "Image size" slider shows the advised value as the report does: growth.yaml's erp is
sized to 156.25 GB disks (the report: "156.2 GB disk"); the slider's 0.5 GB steps showed 156.5. The
advised value is a stop of its own between two steps, and each step shows the value it stands for.
Real MainWindow, real engine, offscreen."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from PySide6.QtCore import Qt

from advisor.text import fmt_value
from tests.ui.conftest import wait_idle
from ui.slider_access import ValueSlider

EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "examples" / "growth.yaml"


def test_a_value_between_steps_is_a_stop_of_its_own(qtbot):
    s = ValueSlider(Qt.Orientation.Horizontal, 0.5, 0.5, "GB", fmt_value)
    qtbot.addWidget(s)
    s.set_grid(0.5, 234.375, 156.25)
    values = [s.value_at(k) for k in range(s.minimum(), s.maximum() + 1)]
    assert values[:3] == [0.5, 1.0, 1.5] and values[-1] == 234.5
    assert values == sorted(values) and len(set(values)) == len(values)
    k = s.position_of(156.25)
    assert values[k - 1: k + 2] == [156.0, 156.25, 156.5]
    s.setValue(k)
    assert s.real_value() == 156.25 and s.value_text() == "156.2 GB"
    assert [s.position_of(v) for v in (156.0, 156.5, 0.5, 234.5, 999.0)] == [k - 1, k + 1, 0, s.maximum(),
                                                                             s.maximum()]
    s.set_grid(0.5, 50.0, 10.0)  # on a step: no stop of its own
    assert s.maximum() == 99 and s.value_at(s.position_of(10.0)) == 10.0


@pytest.mark.timeout(240)
def test_the_image_size_slider_shows_the_advised_disk_as_the_report_does(window, qtbot):
    s = window.session
    with qtbot.waitSignal(s.sig_advice, timeout=60000):
        s.document.load_data(yaml.safe_load(EXAMPLE.read_text()))
    s.document.undo_stack.setClean()
    assert "/ 156.2 GB disk" in " ".join(r.rationale for r in s.advice.recommendations)
    tab = window.show_view("whatif")
    wait_idle(qtbot, tab, 60000)
    image = tab.sliders["image_gb"]
    assert image.value() == 156.25
    assert image.value_label.text() == "<b>156.2</b> GB"
    assert image.slider.accessibleDescription().startswith("Now 156.2 GB.")
    assert not tab.apply_button.isEnabled()
    at = image.slider.value()
    for step, shown, value in ((+1, "156.5", 156.5), (-1, "156.2", 156.25), (-1, "156", 156.0)):
        image.slider.setValue(image.slider.value() + step)  # an arrow key's step
        wait_idle(qtbot, tab, 60000)
        assert (image.value(), image.value_label.text()) == (value, f"<b>{shown}</b> GB")
        assert tab.state.inputs["image_gb"] == value
    image.slider.setValue(at)  # back at the advised point: nothing moved
    wait_idle(qtbot, tab, 60000)
    assert "image_gb" not in tab.state.moved() and not tab.apply_button.isEnabled()
