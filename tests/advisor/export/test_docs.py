"""The export reference's (docs/export-config.md) and the user guide's excerpts of the exports are what the
exports write today (the reference shows resources/examples/scenario.yaml, the guide the welcome's example)."""

from __future__ import annotations

import re

import pytest

from advisor.export import TARGETS, export_config
from tests.advisor.examples import EXAMPLES, ROOT

#: lines of the excerpts that carry exported values
VALUE_LINE = re.compile(r"(<driver |<period>|<quota>|<vcpupin |xl sched-rtds -d|xl cpupool-create|qm set \d|"
                        r"cpu_allocation_ratio =|ram_allocation_ratio =|reserved_host_memory_mb =|"
                        r"cpu_(?:dedicated|shared)_set =)")


def _excerpt_lines(text: str, start: str, end: str | None) -> list[str]:
    section = text[text.index(start):text.index(end, text.index(start)) if end else None]
    blocks = re.findall(r"```\w*\n(.*?)```", section, flags=re.S)
    return [line.strip() for b in blocks for line in b.splitlines() if VALUE_LINE.search(line)]


def _all_text(advice) -> str:
    return "\n".join(t for target in TARGETS for t in export_config(advice, target).files.values())


def _pieces(line: str) -> list[str]:
    """An excerpt line may join several elements (<cputune><vcpupin .../>...) or end in '...'."""
    line = line.split(" ...")[0]
    return [p for p in re.split(r"(?<=>)(?=<)", line) if p.strip() and not p.startswith("</")]


@pytest.mark.parametrize("doc,start,end,scenario", [
    ("docs/export-config.md", "# From advice to configuration", None, "scenario.yaml"),
    ("resources/guide/user-guide.md", "## Export configuration", "## Workshop mode", None),
])
def test_documented_excerpts_match_the_export(advice_of, doc, start, end, scenario):
    if scenario is None:
        from ui.demo import demo_data

        advice = advice_of(demo_data())
    else:
        advice = advice_of(EXAMPLES / scenario)
    text = _all_text(advice)
    lines = _excerpt_lines((ROOT / doc).read_text(encoding="utf-8"), start, end)
    assert len(lines) >= 4
    stale = [p for line in lines for p in _pieces(line) if p.strip() not in text]
    assert not stale, f"{doc}: these excerpt lines are not in today's export; update them: {stale}"
