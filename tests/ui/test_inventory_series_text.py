"""The import dialog's series text (#31 review 2, finding 20): a usable fitted trend is shown and says it
seeds growth.cpu_pct_per_year, as the CLI says and the scenario has it (was: not shown, nothing seeded)."""

from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.timeout(120)


def test_the_dialog_shows_the_fitted_trend_and_what_it_seeds(tmp_path):
    from advisor.inventory import import_inventory
    from ui.dialogs.inventory import _series_html

    t = np.arange(100 * 24)
    grow = 20.0 * np.exp(np.log(1.3) / 365 * t / 24)
    vms = tmp_path / "vms.csv"
    vms.write_text("name,vcpus,ram_gib\napp-01,4,16\n")
    p = tmp_path / "long.csv"
    p.write_text("vm,timestamp,cpu_pct,mem_pct\n" + "".join(f"app-01,{1_700_000_000 + 3600 * i},{grow[i]:.3f},40\n"
                                                           for i in t))
    inv = import_inventory([vms, p])
    html = _series_html(inv.summary()["series"])
    assert "trend (fitted, 100 days): CPU +30" in html and "seeds growth.cpu_pct_per_year" in html
    assert inv.to_scenario()["growth"]["cpu_pct_per_year"] == pytest.approx(30.0, abs=1.0)
