"""Reading input files (issue 19, point 10): regular files only, bounded size, never blocking;
the same rule for scenarios, task sets and imported benchmark files."""

from __future__ import annotations

import os

import pytest

from knowledge.importers.base import ImporterError
from knowledge.importers.registry import REGISTRY
from knowledge.infra.errors import InputError
from knowledge.infra.files import read_regular_bytes, read_regular_text

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX special files")


@pytest.fixture()
def specials(tmp_path):
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.txt"
    zero.symlink_to("/dev/zero")
    folder = tmp_path / "folder.txt"
    folder.mkdir()
    return {"a named pipe (FIFO)": fifo, "a character device": zero, "a folder": folder}


@pytest.mark.timeout(20)
def test_special_files_are_refused_before_opening(specials):
    for kind, path in specials.items():
        with pytest.raises(InputError, match=f"{path}: is {kind.replace('(', '.').replace(')', '.')}"):
            read_regular_bytes(path, "test", 1000)


def test_size_limit_and_encoding(tmp_path):
    path = tmp_path / "f.txt"
    path.write_bytes(b"x" * 101)
    with pytest.raises(InputError, match=r"101 B is larger than a test may be \(100 B\)"):
        read_regular_bytes(path, "test", 100)
    assert read_regular_bytes(path, "test", 101) == b"x" * 101
    path.write_bytes(b"ok\nbad \xff\n")
    with pytest.raises(InputError, match=r"f.txt, line 2: not UTF-8"):
        read_regular_text(path, "test", 100)


@pytest.mark.timeout(20)
def test_importing_a_fifo_or_dev_zero_fails_that_file_only(specials):
    for path in specials.values():
        with pytest.raises(ImporterError, match="not a file; give a benchmark result file"):
            REGISTRY.parse_file(path)
        assert REGISTRY.identify(path) == [] or all(m.confidence == 0 for m in REGISTRY.identify(path))
