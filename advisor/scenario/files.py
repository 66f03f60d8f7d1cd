"""Scenario files: :func:`load_scenario` reads and validates a file (YAML, TOML or JSON, by suffix),
:func:`read_scenario_data` gives its plain data for an editor, :func:`save_scenario` writes YAML,
JSON or (a minimal) TOML. The text is read with the safe read every user file shares
(:mod:`knowledge.infra.userdata`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from advisor.scenario import fields
from advisor.scenario.model import Scenario
from advisor.scenario.reader import parse_scenario
from knowledge.infra.errors import InputError
from knowledge.infra.userdata import FORMATS, plain, read_user_data


def load_scenario(path: Path | str) -> Scenario:
    """Read and validate a scenario file (.yaml/.yml, .toml or .json, chosen by suffix).

    Only a regular file of at most :data:`~advisor.scenario.fields.MAX_SCENARIO_BYTES` is read (a
    FIFO, a device or a folder is refused at once); every problem is an InputError naming the file,
    line or field."""
    return parse_scenario(_read_data(path), str(Path(path)))


def read_scenario_data(path: Path | str) -> Any:
    """The plain data of a scenario file (.yaml/.yml, .toml or .json, chosen by suffix), not yet
    validated: an editor opens a file with a wrong value to show and fix it (a key given twice keeps
    its last value here; :func:`load_scenario` refuses it). Raises InputError when the file cannot
    be read (not a regular file, larger than the limit, not UTF-8) or parsed."""
    return plain(_read_data(path))


def _read_data(path: Path | str) -> Any:
    path = Path(path)
    return read_user_data(path, "scenario", fields.MAX_SCENARIO_BYTES, format_of(path))


def format_of(path: Path) -> str:
    """The format of a scenario file by its suffix (``yaml``, ``toml`` or ``json``)."""
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise InputError(f"{path}: unknown scenario format {path.suffix.lower()!r} (use .yaml, .yml, .toml or .json)")
    return fmt


def dumps(scenario: Scenario, fmt: str) -> str:
    """The scenario as text in ``yaml``, ``json`` or ``toml``."""
    data = scenario.to_dict()
    if fmt == "json":
        return json.dumps(data, indent=2) + "\n"
    if fmt == "toml":
        return to_toml(data)
    import yaml

    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def save_scenario(scenario: Scenario, path: Path | str) -> None:
    """Write ``scenario`` atomically in the format given by the suffix of ``path``."""
    from knowledge.infra.atomic import write_text_atomic

    path = Path(path)
    write_text_atomic(path, dumps(scenario, format_of(path)))


def to_toml(data: dict) -> str:
    """Minimal TOML writer for scenario data: scalars, lists of scalars, tables and arrays
    of tables (enough for every scenario; round-trips through :mod:`tomllib`)."""
    lines: list[str] = []
    _toml_table(data, [], lines)
    return "\n".join(lines).strip() + "\n"


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)  # a JSON string is a valid TOML basic string
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(x)}" for k, x in v.items()) + "}"
    raise InputError(f"cannot write {type(v).__name__} values to TOML")


def _toml_key(k: str) -> str:
    return k if k.replace("_", "").replace("-", "").isalnum() else json.dumps(k)


def _toml_table(data: dict, prefix: list[str], lines: list[str]) -> None:
    def is_table_list(v: Any) -> bool:
        return isinstance(v, list) and bool(v) and all(isinstance(x, dict) for x in v)

    for k, v in data.items():
        if not isinstance(v, dict) and not is_table_list(v):
            lines.append(f"{_toml_key(k)} = {_toml_value(v)}")
    for k, v in data.items():
        name = ".".join(_toml_key(p) for p in [*prefix, k])
        if isinstance(v, dict):
            lines += ["", f"[{name}]"]
            _toml_table(v, [*prefix, k], lines)
        elif is_table_list(v):
            for item in v:
                lines += ["", f"[[{name}]]"]
                _toml_table(item, [*prefix, k], lines)

