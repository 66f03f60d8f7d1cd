"""What the models' figures are worth on the documents' own experiments: the replay's last results as
the program quotes them (the report, the Knowledge view), held out first, in-sample beside it. ``tests/replay/test_held_out.py`` replays the documents and fails
when these numbers no longer are the replay's own (update them with the run it prints)."""

from __future__ import annotations

from typing import Any

#: ``capadvisor replay --held-out``: the ``side_by_side`` numbers of the last run (90 % intervals)
LAST_RUN: dict[str, Any] = {
    "level": 0.9,
    "held_out": {"experiments": 99, "passed": 91, "cases": 367, "cases_within": 336,
                 "interval_median_width": 1.12, "order_pairs": 203, "order_share": 0.96},
    "in_sample": {"experiments": 99, "passed": 98, "cases": 367, "cases_within": 366,
                  "interval_median_width": 0.68, "order_pairs": 205, "order_share": 0.98},
}


def text(run: dict[str, Any] | None = None) -> str:
    """One sentence: held out first, in-sample beside it."""
    r = LAST_RUN if run is None else run
    h, s = r["held_out"], r["in_sample"]
    return (f"The documents replayed with each experiment left out of the models: {h['passed']} of "
            f"{h['experiments']} experiments and {h['cases_within']} of {h['cases']} measured values inside the "
            f"advice's {100 * r['level']:.0f} % intervals (median width {h['interval_median_width']:.2f} of the "
            f"value); in-sample {s['passed']} of {s['experiments']} and {s['cases_within']} of {s['cases']} "
            f"(width {s['interval_median_width']:.2f}).")
