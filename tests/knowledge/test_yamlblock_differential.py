"""Differential test of the scenario YAML reading (review of the line-by-line fast path,
:mod:`knowledge.infra.yamlblock`, issue #30): :func:`knowledge.infra.userdata.loads` must give what
the loader path it sits in front of gives -- the same data (types, key order, duplicate keys with
their lines) or the same error message (with its line and column) -- for documents the dumper
writes (hostile scalars, every dump style) and for damaged and hand-edited copies of them
(comments, trailing spaces, CRLF, BOM, tabs, repeated lines, anchors, document markers, block
scalars, quoted keys, truncation). The reference is ``loads`` with the line-by-line reading off."""

from __future__ import annotations

import datetime
import random

import pytest
import yaml

from knowledge.infra import userdata, yamlblock
from knowledge.infra.errors import InputError
from tests.knowledge.test_yamlblock import _mutated

pytestmark = pytest.mark.timeout(60)

HOSTILE = ["yes", "no", "on", "off", "y", "n", "Y", "~", "null", "NULL", "", " ", "0x1f", "0o17", "017", "08",
           "1_000", "1e3", "1.0e+3", ".5", "-.inf", ".NaN", "+.INF", "2026-01-01", "2026-01-01 10:00:00", "12:30",
           "190:20:30.15", ":", "a: b", "# x", "- x", '"q"', "'q'", "\\", "tab\there", "é", "日本語", "\u00a0x",
           "\u2028", "\x85", "nl\nx", "a #b", "a#b", "x:", "x:y", "-", "---", "...", "? x", "!x", "&a", "*a", "%x",
           "@x", "[x]", "{y}", "a,b", "a]b", "<<", "=", "|", ">", "-1", "+5", "0", "-0", "0.0", "1.", "0b101", "True",
           "x" * 90, "word " * 40, " lead", "trail ", "a - b", "web-01 (prod)", "p99.9", "it's", "''", "\ufeffx"]
KEYS = ["name", "vms", "io", "x y", "1", "null", "yes", "a: b", "# x", "", "~", "0x1f", "é", "-1", "...",
        0, 1, -1, True, False, None, 2.5]
NUMBERS = [0, 1, -1, 3, 10**20, 2.5, -0.0, 1e20, 1e-7, float("inf"), float("nan"), True, False, None,
           datetime.date(2026, 1, 1)]
SNIPPETS = [" ", "  ", "\t", " # c", "#c", "- ", ":", ": ", "'", '"', "-", "? ", "[", "]", "{", "|", ">", "&a ",
            "*a", "!!str ", "\r", "\ufeff", "\x00", "\x85", "é", "<<: ", ","]
LINES = ["# comment", "", " ", "---", "...", "%YAML 1.1", "\t", "x: |", "  block", "k: &a 1", "j: *a"]


def _scalar(rng: random.Random):
    r = rng.random()
    if r < 0.35:
        return rng.choice(HOSTILE)
    if r < 0.45:
        return rng.choice(NUMBERS)
    return rng.choice([f"vm-{rng.randint(0, 99)}", rng.randint(-999, 999), round(rng.uniform(0, 100), 2), "web"])


def _data(rng: random.Random, depth: int = 0):
    r = rng.random()
    if depth > 3 or r < 0.45:
        return _scalar(rng)
    if r < 0.5:
        return rng.choice([[], {}])
    if r < 0.8:
        return {rng.choice(KEYS): _data(rng, depth + 1) for _ in range(rng.randint(1, 5))}
    return [_data(rng, depth + 1) for _ in range(rng.randint(1, 4))]


def _dumped(rng: random.Random) -> str:
    data = {"name": _scalar(rng), "workloads": [_data(rng, 1) for _ in range(rng.randint(0, 3))],
            rng.choice(KEYS): _data(rng)}
    return yaml.safe_dump(data, default_flow_style=rng.choice([False] * 6 + [None, True]),
                          sort_keys=rng.random() < 0.3, width=rng.choice([20, 80, 10**6]),
                          allow_unicode=rng.random() < 0.5, explicit_start=rng.random() < 0.1,
                          indent=rng.choice([2, 2, 4]))


def _damaged(rng: random.Random, text: str) -> str:
    """test_yamlblock's damage (characters put in, lines moved, repeated, cut) and more: other kinds
    of lines, scalars with tags, anchors or odd characters, trailing text, a cut file, CRLF, a BOM."""
    lines = _mutated(rng, text).split("\n")
    i = rng.randrange(len(lines))
    r, snippet = rng.random(), rng.choice(SNIPPETS)
    if r < 0.3:
        lines.insert(i, rng.choice(LINES))
    elif r < 0.7:
        lines[i] = rng.choice([lines[i] + snippet, snippet + lines[i], lines[i].replace(": ", ": " + snippet, 1)])
    elif r < 0.8:
        lines = lines[:i] + [lines[i][: rng.randint(0, len(lines[i]))]]  # a file cut short
    out = "\n".join(lines)
    return rng.choice([out, out, out, out.replace("\n", "\r\n"), "\ufeff" + out, out.rstrip("\n")])


def _lines(rng: random.Random) -> str:
    """Lines of the shape the line-by-line reading takes, at random indentations."""
    values = ["1", "x", "yes", "~", "-1", "1:30", "[]", "{}", "'q'", "''", "---", "...", "a b", ".nan", "a:b", "9" * 5000]
    keys = ["a", "b", "a", "1", "'a'", "'1'", "true", "null", "...", ".nan"]
    out = []
    for _ in range(rng.randint(1, 7)):
        head = " " * rng.choice([0, 0, 0, 1, 2, 2, 3, 4, 6]) + "- " * rng.choice([0, 0, 0, 1, 1, 2])
        r = rng.random()
        if r < 0.45:
            out.append(f"{head}{rng.choice(keys)}: {rng.choice(values)}")
        elif r < 0.8:
            out.append(f"{head}{rng.choice(keys)}:")
        else:
            out.append(f"{head.rstrip('- ')}- {rng.choice(values)}")
    return "\n".join(out) + "\n"


def _canon(x):
    """``x`` as comparable nested tuples: types, key order and the duplicate keys with their lines."""
    if isinstance(x, dict):
        return ("map", type(x).__name__, tuple((_canon(k), _canon(v)) for k, v in x.items()),
                tuple((_canon(k), line) for k, line in getattr(x, "duplicates", ())))
    if isinstance(x, list):
        return ("seq", tuple(_canon(i) for i in x))
    if isinstance(x, float) and x != x:
        return ("float", "nan")
    return (type(x).__name__, x)


def _outcome(text: str):
    try:
        return ("data", _canon(userdata.loads(text, "yaml", "f.yaml")))
    except InputError as exc:
        return ("error", str(exc))


def _loader_path(text: str, monkeypatch: pytest.MonkeyPatch):
    def refuse(*_args):
        raise yamlblock.NotBlock("off")

    with monkeypatch.context() as m:
        m.setattr(yamlblock, "read_block", refuse)
        return _outcome(text)


def _read_by_lines(text: str) -> bool:
    try:
        yamlblock.read_block(text, userdata._plain_scalars(userdata._yaml_loader()), userdata.KeyedMapping)
    except yamlblock.NotBlock:
        return False
    except ValueError:
        pass
    return True


def test_documents_read_as_the_loader_path_reads_them(monkeypatch):
    """Fixed seed, a few seconds: every document's data or error equals the loader path's, and
    enough of them are read line by line for the comparison to mean something."""
    rng, by_lines, seen = random.Random(3004), 0, 0
    for _ in range(400):
        text = _dumped(rng)
        for t in (text, _damaged(rng, text), _lines(rng)):
            seen += 1
            by_lines += _read_by_lines(t)
            assert _outcome(t) == _loader_path(t, monkeypatch), repr(t[:300])
    assert by_lines > seen // 8


@pytest.mark.parametrize("text", [
    "version: " + "9" * 5000 + "\nhosts:\n  - 1\n  count: 2\n",  # the broken line is the loader's message
    "- " + "9" * 5000 + "\n- a: 1\n   b: 2\n",
    "version: " + "9" * 5000 + "\nname: x\n",  # a number too long, in a file otherwise fine
])
def test_a_number_of_thousands_of_digits_is_reported_as_the_loader_reports_it(text, monkeypatch):
    """The line-by-line reading constructed the number before it found the broken line below it: it
    said 'Exceeds the limit (4300 digits)' where the loader says 'line 4, column 3: did not find
    expected '-' indicator'."""
    assert _outcome(text)[0] == "error"
    assert _outcome(text) == _loader_path(text, monkeypatch)
