"""Commands are registered in code: app.cli imports every module of app/commands by name and lists it
in --help; the capadvisor-gui entry point is the CLI's gui command, without the other commands."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from app import cli, entry

pytestmark = pytest.mark.timeout(60)

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = Path(cli.__file__).resolve().parent / "commands"


def test_every_command_module_is_registered_and_listed(capsys):
    modules = {p.stem for p in COMMANDS.glob("*.py") if p.stem != "__init__"}
    assert {m.__name__.rsplit(".", 1)[1] for m in cli.COMMANDS} == modules
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    listed = capsys.readouterr().out
    choices = cli.build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert len(choices) >= len(cli.COMMANDS)  # each module registers its command (kb, sites: one each)
    assert all(f"\n    {name}" in listed for name in choices), listed


def test_the_gui_entry_point_runs_the_gui_command(monkeypatch):
    seen = []
    monkeypatch.setattr(entry, "run", lambda argv, commands: seen.append((argv, commands)) or 0)
    assert entry.gui_main(["--size", "800x600"]) == 0
    assert seen == [(["gui", "--size", "800x600"], (cli.gui,))]  # only the gui command's parser is built
    assert cli.gui_main is entry.gui_main  # the entry point's former name still starts it
    with pytest.raises(SystemExit):
        cli.build_parser((cli.gui,)).parse_args(["gui", "--size"])  # its options as `capadvisor gui` has them
    assert cli.build_parser((cli.gui,)).parse_args(["gui", "--font-pt", "16"]).font_pt == 16.0


def test_the_gui_entry_point_without_options_starts_as_the_parser_would_without_building_it(monkeypatch):
    """``capadvisor-gui`` alone (a desktop icon) needs no parsing: the parser costs ~3 ms of the start-up
    (issue #30). Its arguments are the ones the parser gives ``capadvisor gui``, its checks the same."""
    parsed = vars(cli.build_parser((cli.gui,)).parse_args(["gui"]))
    assert vars(cli.gui.default_args()) == parsed  # an option added to the parser must be added there
    seen = []

    def cmd_gui(args):
        seen.append((vars(args), os.umask(0o077)))
        return 0

    monkeypatch.setattr(entry, "build_parser", lambda commands: pytest.fail("the parser was built"))
    monkeypatch.setattr(cli.gui, "cmd_gui", cmd_gui)
    monkeypatch.setattr("app.startup.check_user_dirs", lambda: seen.append("dirs checked") or [])
    assert entry.gui_main([]) == 0
    assert seen[0][0] == dict(parsed, func=cmd_gui)  # the directories: checked by the GUI once painted
    assert seen[0][1] == 0o077  # the owner-only umask while the command runs, as for any command
    assert "dirs checked" not in seen
    assert entry.execute(argparse.Namespace(func=lambda args: seen.append("ran") or 0)) == 0
    assert seen[-2:] == ["dirs checked", "ran"]  # any other command: checked before it runs


def test_the_gui_entry_point_imports_no_other_command():
    """``capadvisor-gui`` starts the window without importing the CLI's other commands (issue #30)."""
    code = ("import sys, app.entry, app.gui; app.gui.run = lambda **kw: 0; app.entry.gui_main([]); "
            "print(sorted(m for m in sys.modules if m == 'app.cli' or m.startswith('app.commands.')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=50,
                         check=True, env=dict(os.environ, PYTHONPATH=str(ROOT))).stdout
    assert out.split() == ["['app.commands.gui']"]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["gui-scripts"]["capadvisor-gui"] == "app.entry:gui_main"


def test_the_gui_that_cannot_start_says_unwritable_directories_first(monkeypatch, tmp_path, capsys):
    """The GUI checks the user's directories once its window is painted; a GUI that stops before (a bad
    option, no display) says them on stderr first, as before that deferral (review of #30)."""
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    monkeypatch.setenv("CAPADVISOR_CONFIG_DIR", str(blocker / "config"))
    assert entry.gui_main(["--font-pt", "99"]) == 2
    err = capsys.readouterr().err
    assert err.index("cannot save its files") < err.index("--font-pt 99")
    from app import gui as app_gui

    monkeypatch.setattr(app_gui, "native_message", lambda *args: None)
    assert app_gui._fail("no display here") == app_gui.EXIT_NO_GUI
    err = capsys.readouterr().err
    assert err.index("cannot save its files") < err.index("no display here")
