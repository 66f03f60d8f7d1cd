"""The frozen smoke test on any OS (``packaging/test_frozen.sh`` is the fuller Linux one): run the
one-folder build's main commands in a temporary home and fail loudly on any error.

    python packaging/test_frozen.py BUILD_DIR        the one-folder build, or a folder that holds it
    python packaging/test_frozen.py --command python -m app   the same checks on a source checkout

Checks: --version, --help, kb stats, advise on the bundled example as JSON, Markdown, a workbook
and a slide deck, rt, the GUI's screenshots offscreen, and that nothing is written inside the
bundle. Exit status 0 when every check passed, 1 when one failed, 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = float(os.environ.get("CAPADVISOR_TEST_TIMEOUT", "180"))


def find_build(folder: Path) -> Path | None:
    """The one-folder build in ``folder`` (``folder`` itself when it holds the executable)."""
    for base in (folder, *sorted(p for p in folder.glob("capadvisor-*") if p.is_dir())):
        for exe in ("capadvisor.exe", "capadvisor"):
            if (base / exe).is_file() and (base / "_internal").is_dir():
                return base / exe
    return None


class Checks:
    """Runs the commands; counts passes and failures."""

    def __init__(self, command: list[str], work: Path):
        self.command, self.work = command, work
        self.failed: list[str] = []
        self.passed = 0

    def run(self, name: str, *args: str, expect=None) -> subprocess.CompletedProcess | None:
        """``command ARGS``; passes when it exits 0 without a traceback and ``expect(result)`` holds."""
        try:
            res = subprocess.run([*self.command, *args], capture_output=True, text=True, timeout=TIMEOUT,
                                 cwd=self.work, encoding="utf-8", errors="replace")
        except subprocess.TimeoutExpired:
            return self.fail(name, f"timed out after {TIMEOUT:g} s")
        except OSError as exc:
            return self.fail(name, f"cannot run {self.command[0]}: {exc}")
        if res.returncode != 0 or "Traceback (most recent call last)" in res.stderr:
            return self.fail(name, f"exit {res.returncode}: {res.stderr.strip()[-1500:]}")
        try:
            ok = expect is None or expect(res)
        except Exception as exc:  # a check that cannot read the output fails the same way
            ok, res.stderr = False, f"{type(exc).__name__}: {exc}"
        if not ok:
            return self.fail(name, f"unexpected output: {(res.stdout or res.stderr)[:400]}")
        self.passed += 1
        print(f"  ok    {name}")
        return res

    def fail(self, name: str, why: str) -> None:
        self.failed.append(name)
        print(f"  FAIL  {name}: {why}")
        return None


def run_checks(checks: Checks, scenario: Path, version: str) -> None:
    w = checks.work
    checks.run("version", "--version", expect=lambda r: r.stdout.strip() == f"capadvisor {version}")
    checks.run("help", "--help", expect=lambda r: "usage: capadvisor" in r.stdout)
    checks.run("kb-stats", "kb", "stats", "--format", "json", expect=lambda r: json.loads(r.stdout)["measurements"] > 1000)
    checks.run("advise-json", "advise", str(scenario), "--format", "json",
               expect=lambda r: len(json.loads(r.stdout)["recommendations"]) > 0)
    checks.run("advise-md", "advise", str(scenario), "--format", "md", "-o", str(w / "advice.md"),
               expect=lambda r: (w / "advice.md").stat().st_size > 0)
    for fmt in ("xlsx", "pptx"):
        out = w / f"advice.{fmt}"
        checks.run(f"advise-{fmt}", "advise", str(scenario), "--format", fmt, "-o", str(out),
                   expect=lambda r, out=out: out.read_bytes()[:2] == b"PK")
    checks.run("rt", "rt", "--help")
    shots = w / "shots"
    checks.run("gui-screenshots", "gui", "--scenario", str(scenario), "--screenshots", str(shots),
               expect=lambda r: any(shots.glob("*.png")))


def _version() -> str:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import spec_support

    return spec_support.version(ROOT)


def _changed_since(folder: Path, stamp: float) -> list[str]:
    return [str(p) for p in folder.rglob("*") if p.is_file() and p.stat().st_mtime > stamp][:10]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build", nargs="?", type=Path, help="the one-folder build or the folder that holds it")
    parser.add_argument("--command", nargs=argparse.REMAINDER, help="run this command instead of a build")
    args = parser.parse_args(argv)
    if args.command:
        command, bundle = args.command, None
        scenario = ROOT / "resources" / "examples" / "scenario.yaml"
    else:
        exe = find_build(args.build.resolve()) if args.build is not None else None
        if exe is None:
            print(f"test_frozen: no one-folder build in {args.build}", file=sys.stderr)
            return 2
        command, bundle = [str(exe)], exe.parent / "_internal"
        scenario = bundle / "resources" / "examples" / "scenario.yaml"
    with tempfile.TemporaryDirectory(prefix="capadvisor-frozen-") as tmp:
        home, work = Path(tmp) / "home", Path(tmp) / "work"
        home.mkdir()
        work.mkdir()
        os.environ.update(HOME=str(home), USERPROFILE=str(home), QT_QPA_PLATFORM="offscreen",
                          CAPADVISOR_DATA_DIR=str(home / "data"), CAPADVISOR_CACHE_DIR=str(home / "cache"),
                          CAPADVISOR_CONFIG_DIR=str(home / "config"))
        for var in ("PYTHONPATH", "PYTHONHOME") if bundle is not None else ():
            os.environ.pop(var, None)
        stamp = time.time()
        time.sleep(1)
        checks = Checks(command, work)
        run_checks(checks, scenario, _version())
        if bundle is not None:
            written = _changed_since(bundle, stamp)
            if written:
                checks.fail("bundle-untouched", f"written inside the bundle: {written}")
            else:
                checks.passed += 1
                print("  ok    bundle-untouched")
    print(f"{checks.passed} passed, {len(checks.failed)} failed" + (f": {', '.join(checks.failed)}" if checks.failed else ""))
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
