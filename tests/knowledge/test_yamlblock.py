"""The line-by-line reading of block-style YAML (:mod:`knowledge.infra.yamlblock`, issue #30: 10,000
workload groups) builds exactly what the loader builds (types, key order, duplicate keys with their
lines) or leaves the text to the loader; a broken file is never read by it (the loader's message)."""

from __future__ import annotations

import random

import pytest
import yaml

from knowledge.infra import userdata
from knowledge.infra.errors import InputError
from knowledge.infra.yamlblock import NotBlock, read_block

LOADER = userdata._yaml_loader()


def block(text: str):
    return read_block(text, userdata._plain_scalars(LOADER), userdata.KeyedMapping)


def same(x, y) -> bool:
    """Equal data of equal types all the way down, with the same key order and duplicates."""
    if type(x) is not type(y):
        return False
    if isinstance(x, dict):
        return list(x) == list(y) and x.duplicates == y.duplicates and all(same(x[k], y[k]) for k in x)
    if isinstance(x, list):
        return len(x) == len(y) and all(same(a, b) for a, b in zip(x, y, strict=True))
    return x == y or (x != x and y != y)  # NaN


def loaded(text: str):
    return yaml.load(text, Loader=LOADER)  # noqa: S506 - the scenario's SafeLoader subclass


READ = ["a: 1\nb: x y\nc: 'it''s'\nd:\ne: []\nf: {}\n", "a:\n- 1\n- - x\n  - 2.5\nb: no\n",
        "- a: 1\n  b:\n    c: ~\n  d:\n  - e: .inf\n- 0x1F\n- 1_000\n- 1:30\n- -1\n- +5\n- 012\n- 1e3\n",
        "a: 1\nb: 2\na: 3\nc:\n  x: 1\n  x: 2\n", "x: a:b\ny: web-01 (prod), a]b\n'q': 'k: v'\n1: true\nnull: 3\n",
        "  a: 1\n  b: 2", "name: é 日本\nk: a - b\n"]
LEFT = ["a: 1 # c\n", "# c\na: 1\n", "a: 1\n\nb: 2\n", "a: [1, 2]\n", "a: &x 1\nb: *x\n", "a: !!str 1\n",
        "a: |\n  x\n", "a: \"x\"\n", "a: b\n  c\n", "a:\n  - x\n  b: 1\n", "- a\n - b\n", "a: 1\n- b\n",
        "a:\tb\n", "a: 1\r\nb: 2\n", "a: 2001-12-14\n", "<<: {a: 1}\n", "a: b:\n", "a:  b\n", "a: \n", "3\n",
        "", "---\na: 1\n", "a: x\x01\n", "a: '" + "x\n  y'\n", "? a\n: 1\n", "-\n",
        "".join("  " * i + "a:\n" for i in range(70))]


@pytest.mark.parametrize("text", READ)
def test_block_yaml_is_read_as_the_loader_reads_it(text):
    assert same(block(text), loaded(text))


def test_duplicate_keys_keep_their_lines():
    data = block("a: 1\nb: 2\na: 3\nc:\n  x: 1\n  x: 2\n")
    assert data.duplicates == [("a", 3)] and data["c"].duplicates == [("x", 6)] and data["a"] == 3


@pytest.mark.parametrize("text", LEFT)
def test_anything_else_is_left_to_the_loader(text):
    with pytest.raises(NotBlock):
        block(text)
    try:
        expected = loaded(text)
    except yaml.YAMLError as exc:  # a broken file: the message is the loader's
        with pytest.raises(InputError, match="invalid YAML"):
            userdata.loads(text, "yaml", "f.yaml")
        assert str(getattr(exc, "problem", None) or exc).split("\n")[0] in _message(text)
    else:
        assert same(userdata.loads(text, "yaml", "f.yaml"), expected)


def _message(text: str) -> str:
    try:
        userdata.loads(text, "yaml", "f.yaml")
    except InputError as exc:
        return str(exc)
    raise AssertionError("no error")


ATOMS = ["a", "b c", "yes", "null", "", "it's", "-1", "1e3", "0x1F", "1:30", ".inf", "3.0", 3, 0, -1, 2.5, True, None,
         "web-01 (prod)", "p99.9", "x:y", "é", "a,b", "a]b", "'", "-x", "a - b", "0.5", " lead", "trail ", "#h",
         "a #b", "a: b", "- x", "2001-12-14", "<<", "!x", "&a", "[x]", "{y}", "tab\tx", "nl\nx", "\x85", "\u2028",
         "%x", "@x", "?x", ":x", "x:", "---", "...", "x" * 90, "word " * 30, 1e20, float("nan")]


def _data(rng: random.Random, depth: int = 0):
    r = rng.random()
    if depth > 3 or r < 0.5:
        return rng.choice(ATOMS)
    if r < 0.75:
        keys = ["k", "name", "io", "x y", "1", "null", rng.choice(ATOMS[:30])]
        return {rng.choice(keys): _data(rng, depth + 1) for _ in range(rng.randint(0, 4))}
    return [_data(rng, depth + 1) for _ in range(rng.randint(0, 4))]


def _mutated(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines))
        line, op = lines[i], rng.random()
        if op < 0.3:
            lines[i] = " " * rng.randint(1, 3) + line
        elif op < 0.5:
            lines[i] = line[1:]
        elif op < 0.8:
            j = rng.randint(0, len(line))
            lines[i] = line[:j] + rng.choice([" ", "- ", ":", "#", "'", "\t", "-", "? ", "[", "|", "\r"]) + line[j:]
        else:
            lines.insert(i, line)  # a key given twice, or a line out of place
    return "\n".join(lines)


def test_dumped_and_damaged_documents_are_read_as_the_loader_reads_them():
    """Documents the dumper writes (and damaged copies): whatever the block reading accepts, the
    loader reads the same (never a text it refuses); most undamaged ones are accepted."""
    rng, accepted = random.Random(30), 0
    for _ in range(1000):
        data = {"name": _data(rng), "w": [_data(rng), _data(rng)]}
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=rng.random() < 0.5, width=rng.choice([20, 80]),
                              indent=rng.choice([2, 4]))
        for t in (text, _mutated(rng, text), _mutated(rng, text)):
            try:
                fast = block(t)
            except NotBlock:
                continue
            accepted += 1
            assert same(fast, loaded(t)), t
    assert accepted > 250


def test_an_estate_is_read_line_by_line(monkeypatch):
    from tests.benchmarks.bench_scale import estate

    text = yaml.safe_dump(estate(50), sort_keys=False)
    monkeypatch.setattr(userdata, "_yaml_fast", lambda *a: pytest.fail("the composed nodes were read"))
    data = userdata.loads(text, "yaml", "estate.yaml")
    assert same(data, loaded(text)) and len(data["workloads"]) == 50
