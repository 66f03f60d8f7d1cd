"""``docs/scenario-format.md``, generated from the field table (:mod:`advisor.scenario.fields`):
``python -m advisor.scenario.doc`` writes it, ``python -m advisor.scenario.doc --check`` exits 1
when the committed file differs from what the table generates (a test runs the check)."""

from __future__ import annotations

import sys
from pathlib import Path

from advisor.scenario.fields import (
    FIELDS,
    MAX_PROBLEMS_LISTED,
    MAX_SCENARIO_BYTES,
    SCENARIO_VERSION,
    Field,
)
from advisor.scenario.model import FIXABLE, TARGETS
from knowledge.infra.reader import MAX_NUMBER, MAX_TEXT, num

#: where the document lives in the checkout
DOC = Path(__file__).resolve().parents[2] / "docs" / "scenario-format.md"

_KIND_WORDS = {"int": "integer", "float": "number", "text": "text", "choice": "one of", "bool": "true/false",
               "section": "mapping", "list": "list of mappings", "names": "list of field names",
               "mapping": "free-form mapping", "targets": "mapping of targets", "fixed": "mapping of choices",
               "group": "true/false or a group name"}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _default(f: Field) -> str:
    if f.required:
        return "required"
    if f.default is None:
        return "unset"
    if isinstance(f.default, bool):
        return "true" if f.default else "false"
    if isinstance(f.default, (dict, list)):
        return "{}" if isinstance(f.default, dict) else "[]"
    if isinstance(f.default, str):
        return f'"{f.default}"' if not f.default or f.kind == "text" else f"`{f.default}`"
    return num(f.default)


def _bounds(f: Field) -> str:
    if f.kind == "text":
        return f"1-{MAX_TEXT} characters" if not f.empty else f"at most {MAX_TEXT} characters"
    if f.kind in ("list", "names") and f.limit:
        return f"at most {f.limit:,} entries"
    if f.kind not in ("int", "float"):
        return ""
    low = "" if f.minimum is None else f"{'>' if f.exclusive_min else '>='} {num(f.minimum)}"
    high = f"<= {num(f.bound)}"
    words = [f"`{name}` ({num(value)})" for name, value in f.names]
    return ", ".join(x for x in (low, high) if x) + (f"; or {', '.join(words)}" if words else "")


def _kind(f: Field) -> str:
    if f.kind == "choice":
        return "one of " + ", ".join(f"`{c}`" for c in f.choices)
    return _KIND_WORDS[f.kind]


def _table(mapping: str) -> list[str]:
    rows = [f for f in FIELDS if f.parent == mapping]
    out = ["| field | kind | unit | default | bounds | meaning |", "|---|---|---|---|---|---|"]
    for f in rows:
        out.append(f"| `{f.key}` | {_cell(_kind(f))} | {f.unit} | {_cell(_default(f))} | {_bounds(f)} | "
                   f"{_cell(f.tip)} |")
    return out


def _mappings() -> list[tuple[str, str]]:
    """(path, title) of every mapping with fields, in table order."""
    out = [("", "Top level")]
    for f in FIELDS:
        if f.kind in ("section", "list") and any(g.parent == f.path for g in FIELDS):
            out.append((f.path, f"`{f.path}`" + (" (each entry)" if f.kind == "list" else "")))
    return out


def _targets_and_fixed() -> list[str]:
    out = ["## `preferences.targets`", "",
           "A number (a hard target) or `{value, hard}`; the targets of one workload go under "
           "`workloads: {<name>: {...}}`.", "", "| key | unit | bound | applies to |", "|---|---|---|---|"]
    for name, (unit, kind, scope) in TARGETS.items():
        out.append(f"| `{name}` | {unit} | {'upper' if kind == 'max' else 'lower'} | "
                   f"{'the cluster' if scope == 'cluster' else 'every workload, or one'} |")
    out += ["", "## `preferences.fixed`", "", "| decision | choices |", "|---|---|"]
    for name, choices in FIXABLE.items():
        out.append(f"| `{name}` | {', '.join(f'`{c}`' for c in choices) or 'a number of hosts (reserve included)'} |")
    return out


def render() -> str:
    """The whole document."""
    lines = [f"# Scenario file format (version {SCENARIO_VERSION})", "",
             "<!-- Generated from advisor/scenario/fields.py by `python -m advisor.scenario.doc`; do not edit. -->",
             "", "A scenario is YAML (`.yaml`, `.yml`), TOML (`.toml`) or JSON (`.json`), chosen by the suffix. "
             "Paths below have no list indices: `workloads.io` is the `io` of every workload. "
             "How the advice uses the fields: [scenarios.md](scenarios.md).", ""]
    for path, title in _mappings():
        lines += [f"## {title}", "", *_table(path), ""]
    lines += _targets_and_fixed()
    lines += ["", "## Limits", "",
              f"- a scenario file: at most {MAX_SCENARIO_BYTES // 2**20} MiB, a regular file, UTF-8;",
              f"- every number: at most {num(MAX_NUMBER)} in size (tighter bounds above);",
              f"- every text: at most {MAX_TEXT} characters, no control characters;",
              "- a key may appear once in a mapping; unknown keys are refused;",
              f"- one error lists every problem by path (the first {MAX_PROBLEMS_LISTED} of them).", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    text = render()
    if "--check" in argv:
        if not DOC.exists() or DOC.read_text(encoding="utf-8") != text:
            print(f"{DOC} differs from the field table: run python -m advisor.scenario.doc", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(text, encoding="utf-8")
    print(f"wrote {DOC}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
