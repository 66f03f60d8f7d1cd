"""Issue #34, points 2 and 8: a cost catalogue with a 401-digit price (a traceback in ``costs check``,
``costs import`` and ``advise --catalogue``) or a price of 1e308 EUR (``inf EUR`` and JSON
``cost.total: null`` over the years, without a note) is refused naming the field; each run is
bounded (tests/hostile.py)."""

from __future__ import annotations

import pytest

from knowledge.costs import example_path
from tests.advisor.examples import EXAMPLES
from tests.hostile import run_capped

pytestmark = pytest.mark.timeout(600)


@pytest.mark.parametrize("price, shown", [("9" * 401, "not a 401-digit number"), ("1.0e+308", "not 1e+308")])
@pytest.mark.parametrize("command", ["check", "import", "advise"])
def test_an_absurd_price_is_refused_naming_it(tmp_path, price, shown, command):
    text = example_path().read_text(encoding="utf-8").replace("price: 7000", f"price: {price}", 1)
    cat = tmp_path / "costs.yaml"
    cat.write_text(text, encoding="utf-8")
    argv = {"check": ["costs", "check", cat], "import": ["costs", "import", cat],
            "advise": ["advise", EXAMPLES / "small-lab.json", "--catalogue", cat, "--format", "json"]}[command]
    r = run_capped(*argv, timeout=300)
    assert not r.traceback, r.err[-3000:]
    assert r.code == 2 and "hosts[0].price: must be a finite number of at most 1e+12, " + shown in r.err, r.err[-800:]
    assert "inf EUR" not in r.out and '"total": null' not in r.out
