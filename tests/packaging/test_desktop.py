"""Desktop integration files: the .desktop entry, the scenario MIME type, the icon and the launcher."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

from tests.packaging.conftest import LINUX

MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"


def _entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # keys are case-sensitive in desktop entries
    parser.read(LINUX / "capadvisor.desktop", encoding="utf-8")
    return parser["Desktop Entry"]


@pytest.mark.skipif(not shutil.which("desktop-file-validate"), reason="desktop-file-utils not installed")
def test_desktop_file_validates():
    result = subprocess.run(["desktop-file-validate", str(LINUX / "capadvisor.desktop")],
                            capture_output=True, text=True)
    assert result.returncode == 0 and "error" not in result.stdout, result.stdout + result.stderr


def test_desktop_entry_launches_the_gui_and_opens_scenarios():
    entry = _entry()
    assert entry["Type"] == "Application"
    assert entry["Name"] == "Capacity Advisor"
    assert entry["Icon"] == "capadvisor"
    assert entry["Terminal"] == "false"
    assert entry["Exec"].split() == ["capadvisor-launch", "%f"]  # install.sh makes the path absolute
    assert "application/x-capadvisor-scenario" in entry["MimeType"].split(";")
    assert entry["Categories"].endswith(";") and entry["MimeType"].endswith(";")


def test_mime_type_matches_scenario_files_and_the_desktop_entry():
    root = ET.parse(LINUX / "capadvisor-mime.xml").getroot()
    assert root.tag == f"{MIME_NS}mime-info"
    (mtype,) = root.findall(f"{MIME_NS}mime-type")
    assert mtype.get("type") == "application/x-capadvisor-scenario"
    assert mtype.get("type") in _entry()["MimeType"]
    globs = {g.get("pattern") for g in mtype.findall(f"{MIME_NS}glob")}
    assert "*.capadvisor.yaml" in globs
    assert mtype.find(f"{MIME_NS}comment").text


def test_icon_is_a_square_svg():
    root = ET.parse(LINUX / "capadvisor.svg").getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("width") == root.get("height")
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"


@pytest.mark.parametrize(("args", "expected"), [
    ([], "gui"),
    (["/data/plan one.capadvisor.yaml"], "gui|--scenario|/data/plan one.capadvisor.yaml"),
])
def test_launcher_passes_a_scenario_file_to_the_gui(tmp_path, args, expected):
    (tmp_path / "linux").mkdir()
    launcher = tmp_path / "linux" / "capadvisor-launch"
    shutil.copy(LINUX / "capadvisor-launch", launcher)
    record = tmp_path / "argv"
    fake = tmp_path / "capadvisor"
    fake.write_text(f'#!/bin/sh\nIFS="|"; printf "%s" "$*" > "{record}"\n')
    fake.chmod(0o755)
    # started through a symlink, as from another directory, it still finds the program next to it
    link = tmp_path / "elsewhere-launch"
    os.symlink(launcher, link)
    subprocess.run([str(link), *args], check=True)
    assert record.read_text() == expected
