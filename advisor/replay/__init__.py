"""Replay the documents: every experiment of the knowledge base as a scenario, checked against
the advice's expected figures.

The suite (``resources/replay/<document>.yaml``, one file per document, written once as data,
shipped with the app) holds, per document, the testbeds as the document states their hardware (a scenario's
``hosts`` block each) and the experiments: each table, figure series and worked example the
knowledge base holds, with

* the scenario of that testbed and workload (the testbed's hosts, the experiment's workloads
  and preferences, and per case the settings that differ: VMs per host, operation, load, ...);
* the measured value(s): knowledge-base row ids of the document (``rows``) and how they make
  the measured number (``measure``: ``value`` of the first row, ``product`` of the rows, e.g. a
  slowdown factor times the baseline it is relative to, ``ratio`` first / second, ``sum``,
  ``difference``, ``over_rest``: a peak (first row) some points (second row) above the others,
  as a ratio to them, ``equal``: the row states the compared platforms alike, ratio 1, ``max``
  and ``mean`` of the rows, e.g. the hottest of three hosts, ``percent_as_ratio``: a percent
  change as the ratio it means, 1 + p / 100);
* which expected figure of which decision must reproduce it (``decision``, ``scope``,
  ``choice``: the chosen one or an alternative, ``figure``, optionally ``key`` for a value
  inside the figure, e.g. one operation of a cache-mode figure).

A case is *within* when the measured number lies in the figure's stated interval ``[low,
high]`` (a value the document gives as approximate, ``~``, may lie 5 % outside it, one it gives
as exact 0.5 %, or, when that is wider, half a unit in the last place the document states: "=2
s" is 1.5-2.5 s, "~200 MB/s" 150-250, "=4.013 s" 4.0125-4.0135; ``<`` and ``>`` bounds must overlap the interval, as must a
stated range). An experiment passes when all its cases are within. The in-sample bar: at
least :data:`BAR` of the experiments pass, and every scenario of the suite (every setup a
document ran) gets a host count, never ``infeasible``.

Coverage: every row of the five documents is accounted for. A row is *replayed* (a case of an
experiment cites it), rests on a *setup* (a figure-less configuration that must get a host
count), or is listed under the file's ``not_experiments`` with a reason class
(:data:`REASONS`: a testbed description, a setting of the experiment, a count of what was
compared, a survey figure, a step of an analysis, a restatement of a replayed row, or a result
no decision predicts, each with its ``why``); an entry names a ``locator`` and, when it covers
only part of it, its ``rows``. :func:`coverage` counts them per document and lists the rows no
entry accounts for (the tests require none).

Leave-the-experiment-out (``held_out=True``): before an experiment is replayed, every training
point of every family that rests on one of its rows is removed and the family refitted, so the
figure is a prediction for a setup the models have not seen (``tests/benchmarks/bench_replay.py``).

Pure Python (no Qt); the CLI is ``capadvisor replay``.
"""

from advisor.replay.coverage import REASONS, NotExperiment, coverage, load_not_experiments
from advisor.replay.measure import TOLERANCE, Measured, half_ulp, measured, within
from advisor.replay.output import to_markdown, to_text
from advisor.replay.results import BAR, CaseResult, ExperimentResult, ReplayResult
from advisor.replay.running import _rests_on, _without_rows, find_figure, replay_experiment, run
from advisor.replay.suite import (
                                  KINDS,
                                  MEASURES,
                                  Case,
                                  Experiment,
                                  Setup,
                                  default_suite_dir,
                                  load_setups,
                                  load_suite,
)
from knowledge.infra.errors import InputError

__all__ = ["BAR", "KINDS", "MEASURES", "REASONS", "TOLERANCE", "Case", "CaseResult", "Experiment", "ExperimentResult",
           "InputError", "Measured", "NotExperiment", "ReplayResult", "Setup", "_rests_on", "_without_rows", "coverage",
           "default_suite_dir", "find_figure", "half_ulp", "load_not_experiments", "load_setups", "load_suite",
           "measured", "replay_experiment", "run", "to_markdown", "to_text", "within"]
