"""Issue 19 point 7: values that used to be stored and then broke every later command (`sites show`
crashed): negative bandwidths and IOPS, figures so large that their sums overflow to infinity,
parameters nested 600 levels deep, negative job counts. Real fio output (tests/knowledge/importers/
fixtures) edited in those places and imported through the real CLI into a real SQLite file: a
value that cannot be stored is refused with the file and the key named and no site left behind;
whatever was stored, `sites show` and `advise --site` work on it and the database is intact."""

from __future__ import annotations

import copy
import json

import pytest

from knowledge.infra.paths import user_db_path
from tests.app.test_import_faults import FIO, assert_whole, run

BASE = json.loads(FIO.read_text())
EXAMPLE = FIO.parents[4] / "resources" / "examples" / "small-lab.json"


def _negative(doc):
    doc["jobs"][0]["read"].update(bw=-91844, bw_bytes=-94048574, iops=-5.0)


def _huge(doc):  # each job's figure is finite; the group's sum of the two is not
    for job in doc["jobs"]:
        job["read"].update(bw=1.7e308, bw_bytes=1.7e308, iops=1.7e308)


def _deep(doc):
    value: object = "4k"
    for _ in range(600):
        value = [value]
    doc["jobs"][0]["job options"]["bs"] = value


def _negative_jobs(doc):
    doc["jobs"][0]["job options"]["numjobs"] = "-2"


REFUSED = {"negative": (_negative, "is negative"), "huge": (_huge, "not a finite number")}
STORED_OR_REFUSED = {"deep": _deep, "negative-jobs": _negative_jobs}


def _file(tmp_path, name, edit):
    doc = copy.deepcopy(BASE)
    edit(doc)
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_values_no_benchmark_has_are_refused_naming_file_and_key(tmp_path, name):
    edit, words = REFUSED[name]
    path = _file(tmp_path, name, edit)
    assert run("import", str(FIO), "--site", "good")[0] == 0
    code, _, err = run("import", str(path), "--site", name)
    assert code == 2, err
    assert str(path) in err and "key measurement" in err and words in err, err
    assert "Traceback" not in err
    code, _, err = run("sites", "show", name)
    assert code == 2 and "Traceback" not in err  # no site was left behind
    assert_whole(user_db_path())
    assert run("sites", "show", "good")[0] == 0


@pytest.mark.parametrize("name", sorted(STORED_OR_REFUSED))
def test_whatever_is_stored_never_breaks_a_later_command(tmp_path, name):
    path = _file(tmp_path, name, STORED_OR_REFUSED[name])
    code, _, err = run("import", str(path), "--site", name)
    assert code in (0, 2) and "Traceback" not in err, err
    if code == 2:
        assert str(path) in err
        return
    for args in (("sites", "show", name), ("sites", "show", name, "--format", "json"), ("sites", "list")):
        code, out, err = run(*args)
        assert code == 0 and "Traceback" not in err, (args, err)
        if "json" in args:
            json.loads(out)
    code, out, err = run("advise", str(EXAMPLE), "--site", name, "--format", "json")
    assert code == 0, err
    assert json.loads(out)["recommendations"]
    assert_whole(user_db_path())


def test_a_report_cut_short_before_its_figures_is_refused_and_leaves_no_site(tmp_path):
    """fio's text output cut after a job's header line (found by the import fuzz): it used to be
    imported as an import of nothing, leaving a site without figures."""
    text = (FIO.parent / "fio3_two_invocations.txt").read_text()
    cut = tmp_path / "cut.txt"
    cut.write_text(text[: text.index("err= 0") + len("err= 0")])
    code, _, err = run("import", str(cut), "--site", "cut")
    assert code == 2 and str(cut) in err and "no benchmark figures" in err, err
    assert run("sites", "show", "cut")[0] == 2
    if user_db_path().exists():
        assert_whole(user_db_path())
