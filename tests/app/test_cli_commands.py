"""Commands are registered in code: app.cli imports every module of app/commands by name and lists it
in --help; the capadvisor-gui entry point is the CLI's gui command."""

from __future__ import annotations

from pathlib import Path

import pytest

from app import cli

pytestmark = pytest.mark.timeout(60)

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
    monkeypatch.setattr(cli, "main", lambda argv, commands=cli.COMMANDS: seen.append((argv, commands)) or 0)
    assert cli.gui_main(["--size", "800x600"]) == 0
    assert seen == [(["gui", "--size", "800x600"], (cli.gui,))]  # only the gui command's parser is built
    with pytest.raises(SystemExit):
        cli.build_parser((cli.gui,)).parse_args(["gui", "--size"])  # its options as `capadvisor gui` has them
    assert cli.build_parser((cli.gui,)).parse_args(["gui", "--font-pt", "16"]).font_pt == 16.0
