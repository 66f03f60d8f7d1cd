"""install.sh / uninstall.sh put a one-folder build into a user's home and take it out again."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.packaging.conftest import LINUX

LINUX_FILES = ("capadvisor.desktop", "capadvisor-mime.xml", "capadvisor.svg", "capadvisor-launch",
               "install.sh", "uninstall.sh")


@pytest.fixture
def fake_build(tmp_path) -> Path:
    """A one-folder build whose executable prints its arguments (shipped like build.sh lays it out)."""
    build = tmp_path / "dist" / "capadvisor-9.9.9-linux-x86_64"
    (build / "_internal" / "resources").mkdir(parents=True)
    (build / "_internal" / "resources" / "marker.txt").write_text("bundled")
    exe = build / "capadvisor"
    exe.write_text('#!/bin/sh\nif [ "$1" = --version ]; then echo "capadvisor 9.9.9"; exit 0; fi\n'
                   'echo "ran: $*"\n')
    exe.chmod(0o755)
    (build / "linux").mkdir()
    for name in LINUX_FILES:
        shutil.copy2(LINUX / name, build / "linux" / name)
    return build


@pytest.fixture
def home(tmp_path) -> Path:
    home = tmp_path / "user-home"  # tmp_path/home holds the test-wide user dirs (tests/conftest.py)
    home.mkdir()
    return home


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "CAPADVISOR_"))}
    env["HOME"] = str(home)
    return env


def _run(script: Path, home: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run(["bash", str(script), *args], env=_env(home), capture_output=True, text=True)
    if check:
        assert result.returncode == 0, result.stdout + result.stderr
    return result


def _files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() or p.is_symlink()}


def test_install_puts_program_command_menu_entry_icon_and_mime_type_in_home(fake_build, home):
    _run(fake_build / "linux" / "install.sh", home)  # default build: the folder the script ships in
    share = home / ".local" / "share"
    program = share / "capadvisor" / "program"
    link = home / ".local" / "bin" / "capadvisor"
    assert (program / "_internal" / "resources" / "marker.txt").read_text() == "bundled"
    assert link.is_symlink() and link.resolve() == (program / "capadvisor").resolve()
    out = subprocess.run([str(link), "kb", "stats"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ran: kb stats"

    desktop = (share / "applications" / "capadvisor.desktop").read_text()
    exec_line = next(line for line in desktop.splitlines() if line.startswith("Exec="))
    launcher = program / "linux" / "capadvisor-launch"
    assert exec_line == f'Exec="{launcher}" %f'
    assert os.access(launcher, os.X_OK)
    launched = subprocess.run([str(launcher), "/x/a.capadvisor.yaml"], capture_output=True, text=True)
    assert launched.stdout.strip() == "ran: gui --scenario /x/a.capadvisor.yaml"
    if shutil.which("desktop-file-validate"):
        check = subprocess.run(["desktop-file-validate", str(share / "applications" / "capadvisor.desktop")],
                               capture_output=True, text=True)
        assert check.returncode == 0, check.stdout

    icon = share / "icons" / "hicolor" / "scalable" / "apps" / "capadvisor.svg"
    assert icon.read_bytes() == (LINUX / "capadvisor.svg").read_bytes()
    assert (share / "mime" / "packages" / "capadvisor.xml").is_file()
    if shutil.which("update-mime-database"):
        globs = (share / "mime" / "globs2").read_text()
        assert "application/x-capadvisor-scenario:*.capadvisor.yaml" in globs


def test_uninstall_removes_everything_it_installed_and_keeps_user_data(fake_build, home):
    before = _files(home)
    _run(LINUX / "install.sh", home, str(fake_build))
    user_db = home / ".local" / "share" / "capadvisor" / "user.sqlite"
    user_db.write_text("the user's sites")  # what the app itself writes (platformdirs data dir)
    _run(home / ".local" / "share" / "capadvisor" / "program" / "linux" / "uninstall.sh", home)

    left = _files(home) - before
    # databases that update-mime-database / update-desktop-database rebuild (without our entries)
    mime_caches = {f for f in left if (f.startswith(".local/share/mime/") and "packages" not in f)
                   or f == ".local/share/applications/mimeinfo.cache"}
    assert left - mime_caches == {".local/share/capadvisor/user.sqlite"}
    for cache in mime_caches:
        assert "capadvisor" not in (home / cache).read_bytes().decode("utf-8", "replace"), cache
    if mime_caches:
        assert "capadvisor" not in (home / ".local/share/mime/globs2").read_text()
    assert not (home / ".local" / "bin" / "capadvisor").exists()
    assert user_db.read_text() == "the user's sites"

    _run(LINUX / "uninstall.sh", home, "--purge")
    assert not (home / ".local" / "share" / "capadvisor").exists()


def test_purge_removes_data_settings_and_cache(fake_build, home):
    _run(LINUX / "install.sh", home, str(fake_build))
    for d in (".local/share/capadvisor", ".config/capadvisor", ".cache/capadvisor"):
        (home / d).mkdir(parents=True, exist_ok=True)
        (home / d / "f").write_text("x")
    _run(LINUX / "uninstall.sh", home, "--purge")
    assert not any("capadvisor" in f for f in _files(home) if "mime/" not in f)


def test_reinstall_replaces_the_program(fake_build, home):
    _run(LINUX / "install.sh", home, str(fake_build))
    program = home / ".local" / "share" / "capadvisor" / "program"
    (program / "_internal" / "left-over-from-old-version").write_text("old")
    (fake_build / "_internal" / "resources" / "marker.txt").write_text("new build")
    _run(LINUX / "install.sh", home, str(fake_build))
    assert (program / "_internal" / "resources" / "marker.txt").read_text() == "new build"
    assert not (program / "_internal" / "left-over-from-old-version").exists()
    assert not (program.parent / "program.old").exists()


def test_install_refuses_a_folder_that_is_not_a_build_and_a_foreign_command(fake_build, home, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    result = _run(LINUX / "install.sh", home, str(empty), check=False)
    assert result.returncode != 0 and "not a one-folder build" in result.stderr
    (home / ".local" / "bin").mkdir(parents=True)
    (home / ".local" / "bin" / "capadvisor").write_text("someone else's script")
    result = _run(LINUX / "install.sh", home, str(fake_build), check=False)
    assert result.returncode != 0 and "not a symlink" in result.stderr
    assert (home / ".local" / "bin" / "capadvisor").read_text() == "someone else's script"
    assert not (home / ".local" / "share" / "capadvisor").exists()


def test_install_refuses_a_build_that_does_not_run(fake_build, home):
    (fake_build / "capadvisor").write_text("#!/bin/sh\necho 'error while loading shared libraries' >&2\nexit 127\n")
    result = _run(LINUX / "install.sh", home, str(fake_build), check=False)
    assert result.returncode != 0 and "does not run" in result.stderr


def test_install_uses_the_apps_own_icon_when_the_build_has_one(fake_build, home):
    app_icon = fake_build / "_internal" / "resources" / "icons" / "capadvisor.svg"
    app_icon.parent.mkdir(parents=True)
    app_icon.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>')
    _run(LINUX / "install.sh", home, str(fake_build))
    icon = home / ".local/share/icons/hicolor/scalable/apps/capadvisor.svg"
    assert icon.read_text() == app_icon.read_text()
