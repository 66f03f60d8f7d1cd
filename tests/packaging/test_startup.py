"""app.startup.check_user_dirs: clear problems when the user's directories cannot be written."""

from __future__ import annotations

import os

import pytest

from app.startup import check_user_dirs, user_dirs_message


def test_writable_dirs_have_no_problems_and_missing_ones_are_created(tmp_path, monkeypatch):
    target = tmp_path / "new" / "data"
    monkeypatch.setenv("CAPADVISOR_DATA_DIR", str(target))
    assert check_user_dirs() == []
    assert target.is_dir()
    assert list(target.iterdir()) == []  # the write test leaves nothing behind


def test_a_dir_that_cannot_be_created_is_reported_with_its_fix(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("CAPADVISOR_CACHE_DIR", str(blocker / "cache"))
    problems = check_user_dirs()
    assert len(problems) == 1
    assert str(blocker / "cache") in problems[0]
    assert "cache directory" in problems[0] and "CAPADVISOR_CACHE_DIR" in problems[0]
    message = user_dirs_message(problems)
    assert message.startswith("Capacity Advisor cannot save its files:")
    assert problems[0] in message


def test_a_file_in_place_of_the_dir_is_reported(tmp_path, monkeypatch):
    not_dir = tmp_path / "config"
    not_dir.write_text("")
    monkeypatch.setenv("CAPADVISOR_CONFIG_DIR", str(not_dir))
    (problem,) = check_user_dirs()
    assert "CAPADVISOR_CONFIG_DIR" in problem and str(not_dir) in problem


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through permission bits")
def test_a_read_only_dir_is_reported(tmp_path, monkeypatch):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    monkeypatch.setenv("CAPADVISOR_DATA_DIR", str(ro))
    try:
        (problem,) = check_user_dirs()
    finally:
        ro.chmod(0o700)
    assert "not writable" in problem and "CAPADVISOR_DATA_DIR" in problem
