"""The README is a landing page (under 150 lines, the two set-up commands) and every relative link of
the README, CONTRIBUTING, ARCHITECTURE and docs/ leads to a file that exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "ARCHITECTURE.md", *sorted((ROOT / "docs").glob("*.md"))]

pytestmark = pytest.mark.timeout(30)


def test_the_readme_is_a_landing_page():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) < 150
    setup = re.search(r"```sh\n(.*?)```", text, flags=re.S).group(1)  # the first block: setting up
    assert [line.split()[:2] for line in setup.splitlines()] == [["./run", "app"], ["./run", "tests"]]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file(page):
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8"))
    broken = [t for t in links if not t.startswith(("http://", "https://", "mailto:")) and not (page.parent / t).exists()]
    assert not broken, broken
