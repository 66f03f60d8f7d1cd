"""Property-based fuzzing of every parser: whatever the input, the only exception allowed is
the importer's own error (ImporterError); a successful parse yields well-formed measurements."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from knowledge.importers import bonnie, fio, fio_terse, fio_text, iozone, postmark, sysbench
from knowledge.importers.base import ImporterError, ParsedFile, decode_text
from knowledge.importers.registry import REGISTRY

from .conftest import FIXTURES

PARSERS = {"fio": fio, "fio_text": fio_text, "fio_terse": fio_terse, "bonnie": bonnie, "sysbench": sysbench, "postmark": postmark,
           "iozone": iozone}
SAMPLES = {
    "fio": ["fio3_randrw_2jobs_group.json", "fio3_randrw_2jobs.json", "fio2_write_published.json"],
    "fio_text": ["fio3_randrw_2jobs.txt", "fio3_seqwrite_2jobs_group.txt"],
    "fio_terse": ["fio3_terse_v3_randrw_2jobs.txt", "fio3_terse_v5_randrw_2jobs.txt", "fio3_terse_v2_randrw_2jobs.txt"],
    "bonnie": ["bonnie2_csv_sync.txt", "bonnie2_table.txt", "bonnie103_published.txt"],
    "sysbench": ["sysbench10_fileio_rndrw.txt", "sysbench10_cpu.txt", "sysbench11_fileio_rndrw_published.txt",
                 "sysbench10_session_log.txt"],
    "postmark": ["postmark_verbose.txt", "postmark_terse.txt"],
    "iozone": ["iozone3_auto_stdout.txt", "iozone3_excel_R_sample.txt",
               "../../../fixtures/published/tigerbsd_iozone3457_throughput_R_4proc.txt"],
}
TEXTS = {name: [(FIXTURES / f).read_text() for f in files] for name, files in SAMPLES.items()}
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
JUNK = st.text(alphabet=st.sampled_from(list('0123456789.,:-+e "{}[]()=/\n\tkKmMsuABCDEFGiIOP%x')), max_size=12)


def check(module, text: str) -> None:
    try:
        result = module.parse(text, "fuzz.txt")
    except ImporterError as exc:
        assert "fuzz.txt" in str(exc)
        return
    assert isinstance(result, ParsedFile)
    for m in result.measurements:
        assert isinstance(m.value, float) and math.isfinite(m.value)
        assert m.value_si is not None and math.isfinite(m.value_si) or abs(m.value) > 1e300
        assert all(isinstance(v, str) for v in m.factors.values())


@st.composite
def mutated(draw, name):
    text = draw(st.sampled_from(TEXTS[name]))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["cut", "insert", "replace", "truncate", "drop_line"]))
        if not text:
            break
        i = draw(st.integers(0, len(text) - 1))
        if kind == "cut":
            text = text[:i] + text[i + draw(st.integers(1, 200)):]
        elif kind == "insert":
            text = text[:i] + draw(JUNK) + text[i:]
        elif kind == "replace":
            text = text[:i] + draw(JUNK) + text[i + draw(st.integers(1, 12)):]
        elif kind == "truncate":
            text = text[:i]
        else:
            lines = text.splitlines(keepends=True)
            del lines[draw(st.integers(0, len(lines) - 1))]
            text = "".join(lines)
    return text


@pytest.mark.parametrize("name", sorted(PARSERS))
@FUZZ
@given(data=st.data())
def test_mutated_real_output_raises_only_importer_errors(name, data):
    check(PARSERS[name], data.draw(mutated(name)))


ALL_LINES = sorted({ln for texts in TEXTS.values() for t in texts for ln in t.splitlines()})
ODD_NUMBERS = st.sampled_from(["0", "-1", "-0.5", "1e999", "nan", "", ".", "1.2.3", "99999999999999999999",
                               "+++++", "0.00", "1e-320"])


@st.composite
def line_soup(draw):
    """Lines of every tool's real output, shuffled, with numbers swapped for awkward ones."""
    import re

    lines = draw(st.lists(st.sampled_from(ALL_LINES), min_size=1, max_size=40))
    out = []
    for ln in lines:
        if draw(st.booleans()):
            ln = re.sub(r"\d+(?:\.\d+)?", lambda _m: draw(ODD_NUMBERS), ln, count=draw(st.integers(1, 3)))
        out.append(ln)
    return "\n".join(out)


@pytest.mark.parametrize("name", sorted(PARSERS))
@FUZZ
@given(text=line_soup())
def test_shuffled_lines_with_odd_numbers_raise_only_importer_errors(name, text):
    check(PARSERS[name], text)


@pytest.mark.parametrize("name", sorted(PARSERS))
@FUZZ
@given(text=st.text(max_size=400))
def test_arbitrary_text_raises_only_importer_errors(name, text):
    check(PARSERS[name], text)


@FUZZ
@given(text=st.one_of(st.text(max_size=300), mutated("fio"), mutated("bonnie"), mutated("iozone")))
def test_registry_detects_and_parses_anything_without_crashing(text):
    try:
        REGISTRY.parse_text(text, "fuzz.txt")
    except ImporterError as exc:
        assert "fuzz.txt" in str(exc)


@FUZZ
@given(data=st.binary(max_size=300))
def test_decoding_any_bytes_raises_only_importer_errors(data):
    try:
        assert isinstance(decode_text(data, "fuzz.bin"), str)
    except ImporterError as exc:
        assert "fuzz.bin" in str(exc)
