"""Hypothesis fuzzing of `capadvisor import` for each importer (bounded, in the default suite):
whatever the file, the exit code is 0, 2 or 3, there is never a traceback, a failure names the file,
and the user database stays intact."""

from __future__ import annotations

import contextlib
import io
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.cli import main
from knowledge.infra.paths import user_db_path
from tests.app.test_import_faults import assert_whole

FIXTURES = Path(__file__).resolve().parents[1] / "knowledge" / "importers" / "fixtures"
SAMPLES = {
    "fio-json": "fio3_randrw_2jobs.json", "fio-text": "fio3_two_invocations.txt",
    "fio-terse": "fio3_terse_v3_randrw_2jobs.txt",
    "bonnie++": "bonnie2_csv_sync.txt", "sysbench": "sysbench10_session_log.txt",
    "postmark": "postmark_three_reports.txt", "iozone": "iozone3_auto_stdout.txt",
}
JUNK = st.text(alphabet=st.sampled_from(list('0123456789.,:-+e "{}[]()=/\n\tkKmMsuABG%\ud800\x00é')), max_size=10)
FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                       HealthCheck.function_scoped_fixture])


@st.composite
def mutated(draw, text: str) -> str:
    for _ in range(draw(st.integers(1, 4))):
        if not text:
            break
        i = draw(st.integers(0, len(text) - 1))
        kind = draw(st.sampled_from(["cut", "insert", "replace", "truncate", "negate"]))
        if kind == "cut":
            text = text[:i] + text[i + draw(st.integers(1, 300)):]
        elif kind == "insert":
            text = text[:i] + draw(JUNK) + text[i:]
        elif kind == "replace":
            text = text[:i] + draw(JUNK) + text[i + draw(st.integers(1, 12)):]
        elif kind == "truncate":
            text = text[:i]
        else:  # a number made negative or huge
            text = text[:i] + draw(st.sampled_from(["-", "9e999", "1e308", "-0"])) + text[i:]
    return text


@pytest.mark.parametrize("tool", sorted(SAMPLES))
def test_import_never_crashes(tool, tmp_path):
    original = (FIXTURES / SAMPLES[tool]).read_text()
    target = tmp_path / f"fuzzed-{tool}.txt"

    @FUZZ
    @given(text=mutated(original))
    def check(text):
        target.write_bytes(text.encode("utf-8", "surrogatepass"))
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["import", str(target), "--site", "fuzz"])
        assert code in (0, 2, 3), err.getvalue()
        assert "Traceback" not in err.getvalue()
        if code:
            assert target.name in err.getvalue()
        out2, err2 = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out2), contextlib.redirect_stderr(err2):
            assert main(["sites", "show", "fuzz"]) in (0, 2), err2.getvalue()

    check()
    if user_db_path().exists():
        con = sqlite3.connect(user_db_path())
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        con.close()
        assert_whole(user_db_path())  # no site without imports, no import without measurements
