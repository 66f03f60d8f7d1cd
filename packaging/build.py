"""One-folder build of Capacity Advisor with PyInstaller on the OS it runs on: the command for
Windows and macOS (``packaging/build.sh`` is the Linux x86-64 build and points here on the others),
and what ``.github/workflows/build.yml`` runs on each OS of its matrix.

    python packaging/build.py          dist/capadvisor-<version>-<platform>/ (executable capadvisor[.exe])
    python packaging/build.py --dmg    macOS: also dist/Capacity Advisor.app in dist/capadvisor-<version>-<platform>.dmg
    python packaging/build.py --installer   Windows: also a per-user installer (Inno Setup 6's iscc)

Run it with the Python of a checkout that has the 'build' extra (pip install -e '.[build]').
The knowledge base is compiled from knowledge/data first and bundled read-only, as build.sh does.
Then test the build: python packaging/test_frozen.py dist/capadvisor-<version>-<platform>
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
import spec_support  # noqa: E402


def run(*cmd: str, env: dict | None = None) -> None:
    print("[build]", " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, cwd=ROOT, check=True, env=env)


def build(dmg: bool = False, installer: bool = False) -> Path:
    """Build the one-folder app; returns its folder. Raises SystemExit with the reason on failure."""
    try:
        import PyInstaller  # noqa: F401
    except ImportError:
        raise SystemExit(f"PyInstaller is missing: {sys.executable} -m pip install -e '.[build]'") from None
    name = spec_support.build_name(ROOT)
    kb = ROOT / "build" / "kb" / "knowledge.sqlite"
    kb.parent.mkdir(parents=True, exist_ok=True)
    kb.unlink(missing_ok=True)
    run(sys.executable, "-m", "knowledge.build", str(kb))
    out = ROOT / "dist" / name
    shutil.rmtree(out, ignore_errors=True)
    env = {**os.environ, "CAPADVISOR_BUILD_KB": str(kb), "CAPADVISOR_BUILD_ONEFILE": "0"}
    run(sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN",
        "--distpath", str(ROOT / "dist"), "--workpath", str(ROOT / "build" / "pyinstaller"),
        str(ROOT / "packaging" / "capadvisor.spec"), env=env)
    exe = out / ("capadvisor.exe" if sys.platform == "win32" else "capadvisor")
    if not exe.is_file():
        raise SystemExit(f"PyInstaller did not produce {exe}")
    if not (out / "_internal" / "resources" / "data" / "knowledge.sqlite").is_file():
        raise SystemExit("the knowledge base is missing from the build")
    if dmg:
        make_dmg(name)
    if installer:
        make_installer(out)
    print(f"[build] done: {out}\n[build] test it with: {Path(sys.executable).name} packaging/test_frozen.py {out}",
          file=sys.stderr)
    return out


def make_dmg(name: str) -> Path:
    """macOS: the .app the spec bundles, in a compressed disk image (hdiutil)."""
    if sys.platform != "darwin":
        raise SystemExit("--dmg: disk images are made on macOS only")
    app = ROOT / "dist" / "Capacity Advisor.app"
    if not app.is_dir():
        raise SystemExit(f"PyInstaller did not produce {app}")
    image = ROOT / "dist" / f"{name}.dmg"
    run("hdiutil", "create", "-volname", "Capacity Advisor", "-srcfolder", str(app), "-ov", "-format", "UDZO",
        str(image))
    return image


def make_installer(folder: Path) -> Path:
    """Windows: the per-user installer of ``folder`` (packaging/windows/capadvisor.iss, Inno Setup 6)."""
    if sys.platform != "win32":
        raise SystemExit("--installer: the Windows installer is made on Windows only")
    iscc = shutil.which("iscc") or r"C:\Program Files (x86)\Inno Setup 6\ISCC.exe"
    if not Path(iscc).is_file() and shutil.which(iscc) is None:
        raise SystemExit("--installer needs Inno Setup 6 (iscc); install it from jrsoftware.org")
    version = spec_support.version(ROOT)
    run(iscc, f"/DAppVersion={version}", f"/DBuildDir={folder}", f"/DOutputDir={ROOT / 'dist'}",
        str(ROOT / "packaging" / "windows" / "capadvisor.iss"))
    return ROOT / "dist" / f"capadvisor-{version}-windows-x86_64-setup.exe"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dmg", action="store_true", help="macOS: also put the .app in a dmg")
    parser.add_argument("--installer", action="store_true", help="Windows: also a per-user installer (Inno Setup 6)")
    args = parser.parse_args(argv)
    build(dmg=args.dmg, installer=args.installer)
    return 0


if __name__ == "__main__":
    sys.exit(main())
