"""``--OPTION=--`` is refused, naming the option, for every option of every command that takes one value.

Was: argparse took the ``--`` for the end of the options and handed the option an empty list:
``rt FILE --share=--`` died in a traceback (TypeError: must be real number, not list), ``advise FILE
--format=--`` wrote HTML, ``inventory FILE --percentile=--`` sized on the default."""

from __future__ import annotations

import argparse

import pytest

from app.cli import build_parser, main


def _options() -> list[tuple[str, str]]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    found = []
    for name, command in sub.choices.items():
        for action in command._actions:
            if action.nargs is None and action.option_strings and not isinstance(action, argparse._HelpAction):
                found += [(name, o) for o in action.option_strings if o.startswith("--")]
    return found


OPTIONS = _options()


def test_the_commands_have_such_options():
    assert ("rt", "--share") in OPTIONS and ("advise", "--format") in OPTIONS and ("inventory", "--percentile") in OPTIONS


@pytest.mark.parametrize("command, option", OPTIONS, ids=[f"{c} {o}" for c, o in OPTIONS])
def test_end_of_options_as_a_value_is_refused(command, option, capsys):
    with pytest.raises(SystemExit) as exc:
        main([command, "resources/examples/scenario.yaml", f"{option}=--"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}: '--' is not a value" in err, err


def test_the_rt_share_case_runs_no_further(capsys):
    with pytest.raises(SystemExit):
        main(["rt", "resources/examples/rt_thesis_example.csv", "--share=--"])
    assert "Traceback" not in capsys.readouterr().err


def test_a_value_after_the_end_of_options_is_left_alone():
    """After a bare ``--`` a token is a file name, whatever it looks like (argparse's own rule)."""
    from app.entry import _refuse_misread_values

    _refuse_misread_values(build_parser(), ["inventory", "--", "--odd=--"])  # no SystemExit


def test_an_unknown_option_is_left_to_argparse(capsys):
    """Review r10: ``--percentile --x=--`` named a non-existent ``--x``; argparse's own message is right."""
    with pytest.raises(SystemExit) as exc:
        main(["inventory", "x.csv", "--percentile", "--x=--"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "argument --x" not in err and "--percentile" in err, err


def _path_options() -> list[tuple[str, str]]:
    from pathlib import Path

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return [(name, o) for name, command in sub.choices.items() for a in command._actions if a.type is Path
            for o in a.option_strings]


PATH_OPTIONS = _path_options()


@pytest.mark.parametrize("command, option", PATH_OPTIONS, ids=[f"{c} {o}" for c, o in PATH_OPTIONS])
def test_an_empty_file_name_is_refused_naming_the_option(command, option, capsys):
    """Review r10: ``advise FILE -o ''`` said "cannot write .: Device or resource busy" (Path('') is '.')."""
    for argv in ([command, "resources/examples/scenario.yaml", option, ""],
                 [command, "resources/examples/scenario.yaml", f"{option}="] if option.startswith("--") else None):
        if argv is None:
            continue
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2
        assert f"argument {option}: no file name given" in capsys.readouterr().err


def test_the_options_with_file_names_include_the_output_and_the_kb():
    assert ("advise", "-o") in PATH_OPTIONS and ("advise", "--kb") in PATH_OPTIONS


def test_a_percentile_out_of_range_is_echoed_as_typed(capsys):
    with pytest.raises(SystemExit):
        main(["inventory", "x.csv", "--percentile", "1e309"])
    err = capsys.readouterr().err
    assert "1e309 is outside 1-100" in err and "inf" not in err, err
