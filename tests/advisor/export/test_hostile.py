"""Names nobody should choose: a newline, quotes, shell and XML syntax in the scenario's and the
workloads' names, and two names with the same file name. The exports still validate, the names
only ever reach comments (never a command, a setting or markup), and every group keeps its files."""

from __future__ import annotations

import json

import defusedxml.ElementTree as ET
import yaml

from advisor.benchplan import make_plan
from advisor.export import TARGETS, export_config
from advisor.export.check import check_files
from tests.advisor.examples import EXAMPLES

EVIL = "x\nrm -rf /tmp/capadvisor-evil # '\"$(evilcmd)`evilid` <b>--</b> ]]> |"


def _scenario() -> dict:
    sc = json.loads((EXAMPLES / "small-lab.json").read_text())
    sc["name"] = EVIL
    sc["workloads"][0]["name"] = "Web"
    sc["workloads"][1]["name"] = "web!"  # the same file name as "Web"
    sc["workloads"][2]["name"] = "w" + EVIL
    return sc


def _comment(line: str) -> bool:
    s = line.strip()
    return s.startswith(("#", ";", "<!--", "-->", "|", "-", "capadvisor", "sources:")) or s == ""


def test_hostile_names_reach_comments_only(advice_of, session_kb):
    advice = advice_of(_scenario())
    for target in TARGETS:
        ex = export_config(advice, target)
        assert len({g.slug for g in ex.plan.groups}) == 3
        bad = [str(f) for f in check_files(ex.files) if f.ok is not True]
        assert not bad, bad
        for rel, text in ex.files.items():
            if rel.endswith(".md"):
                continue
            if rel.endswith(".xml"):  # text and attributes escaped: the name stays text
                root = ET.fromstring(text)
                if root.tag == "domain" and "evilcmd" in root.findtext("title", ""):
                    assert root.findtext("title").startswith("wx rm -rf /tmp/capadvisor-evil # '\"$(evilcmd)`evilid` <b>")
                    assert [el.tag for el in root] == ["name", "title", "memory", "currentMemory", "vcpu", "os",
                                                       "features", "cpu", "clock", "on_poweroff", "on_reboot",
                                                       "on_crash", "devices"]
                continue
            if rel.endswith(".yaml"):  # a quoted YAML string: data, the template's structure unchanged
                doc = yaml.safe_load(text)
                assert "$(evilcmd)" in doc["description"] and set(doc) == {"heat_template_version", "description",
                                                                           "resources"}
                continue
            for line in text.splitlines():
                if "$(evilcmd)" in line or "rm -rf /tmp" in line:
                    assert _comment(line), (rel, line)
    plan = make_plan(advice, kb=session_kb, site="lab\nrm -rf /")
    assert "\n" not in plan.site
    for rel, text in plan.files.items():
        if rel.endswith(".md"):
            continue
        for line in text.splitlines():
            if "$(evilcmd)" in line or "rm -rf /tmp" in line:
                assert line.lstrip().startswith(("#", ";")), (rel, line)


def test_hostile_names_stay_text_in_the_export_readmes(advice_of):
    """A scenario or group name with markup (`<x>live</x>`, an unclosed `<!--`, a heading, a table bar)
    reaches the README of every target as text (the review of #34: a raw tag and an open comment hid the
    rest of the README in any Markdown renderer)."""
    from markdown_it import MarkdownIt

    sc = _scenario()
    sc["name"] = "evil ---> <x>live</x> <!-- -- # | *"
    sc["workloads"][2]["name"] = "w<x>g</x> <!--"
    advice = advice_of(sc)
    md = MarkdownIt("commonmark")
    for target in TARGETS:
        ex = export_config(advice, target)
        readmes = [text for rel, text in ex.files.items() if rel.endswith("README.md")]
        assert readmes, target
        for text in readmes:
            html = md.render(text)
            assert "<x>" not in html and "<!--" not in html, target
            assert "## How to apply" in text and "How to apply</h2>" in html  # nothing after a name is hidden
