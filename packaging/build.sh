#!/usr/bin/env bash
# Build Capacity Advisor for Linux x86-64 with PyInstaller: the one build command.
#
#   packaging/build.sh            one-folder and one-file builds (plus a .tar.gz of the folder) in dist/
#   packaging/build.sh --onedir   only the one-folder build (quicker while iterating)
#
# Outputs, named with the version from app/__init__.py:
#   dist/capadvisor-<version>-linux-x86_64/capadvisor   one-folder build (run the executable inside)
#   dist/capadvisor-<version>-linux-x86_64.tar.gz       the same folder as an archive
#   dist/capadvisor-<version>-linux-x86_64-onefile      one-file build
# The knowledge base is compiled from knowledge/data first and shipped read-only inside the build.
# Python: $PYTHON if set, else .venv/bin/python (needs the 'build' extra: pip install -e '.[build]').
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
PY=${PYTHON:-$ROOT/.venv/bin/python}
say() { printf '[build] %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

onefile=1
for arg in "$@"; do
  case "$arg" in
    --onedir) onefile=0 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option $arg (see --help)" ;;
  esac
done

case "$(uname -s)" in  # Windows and macOS: the one-folder build of packaging/build.py (what CI runs)
  Darwin|MINGW*|MSYS*|CYGWIN*|Windows_NT)
    say "this script builds for Linux x86-64; on $(uname -s) use instead (from the checkout, with the 'build' extra):"
    say "  python packaging/build.py             # one-folder build in dist/ (macOS: --dmg adds an .app in a dmg)"
    say "  python packaging/test_frozen.py dist  # the frozen smoke test"
    say "see packaging/README.md: these were written for Windows and macOS but not run there"
    exit 2 ;;
esac
[ "$(uname -s)" = Linux ] && [ "$(uname -m)" = x86_64 ] || die "this build is for Linux x86-64 (this is $(uname -s) $(uname -m))"
[ -x "$PY" ] || die "no Python at $PY (run ./run tests once, or set PYTHON)"
"$PY" -c 'import PyInstaller' 2>/dev/null || die "PyInstaller is missing: $PY -m pip install -e '.[build]'"

NAME=$("$PY" -c 'import sys; sys.path.insert(0, "packaging"); import spec_support; print(spec_support.build_name())')
say "building $NAME"

KB="$ROOT/build/kb/knowledge.sqlite"
rm -f "$KB"
"$PY" -m knowledge.build "$KB" >&2 || die "the curated data does not compile (run: capadvisor kb validate)"

rm -rf "dist/$NAME" "dist/$NAME-onefile" "dist/$NAME.tar.gz" build/pyinstaller
start=$(date +%s)
CAPADVISOR_BUILD_KB="$KB" CAPADVISOR_BUILD_ONEFILE="$onefile" \
  "$PY" -m PyInstaller --noconfirm --clean --log-level WARN \
  --distpath "$ROOT/dist" --workpath "$ROOT/build/pyinstaller" packaging/capadvisor.spec
[ -x "dist/$NAME/capadvisor" ] || die "PyInstaller did not produce dist/$NAME/capadvisor"
[ -f "dist/$NAME/_internal/resources/data/knowledge.sqlite" ] || die "the knowledge base is missing from the build"

# desktop integration travels with the folder: NAME/linux/install.sh installs it for a user
mkdir -p "dist/$NAME/linux"
cp packaging/linux/capadvisor.desktop packaging/linux/capadvisor-mime.xml packaging/linux/capadvisor.svg \
  packaging/linux/capadvisor-launch packaging/linux/install.sh packaging/linux/uninstall.sh "dist/$NAME/linux/"

if [ "$onefile" = 1 ]; then
  [ -x "dist/$NAME-onefile" ] || die "PyInstaller did not produce dist/$NAME-onefile"
  tar -C dist -czf "dist/$NAME.tar.gz" "$NAME"
fi

say "done in $(( $(date +%s) - start )) s:"
du -sh "dist/$NAME" >&2
[ "$onefile" = 1 ] && du -sh "dist/$NAME-onefile" "dist/$NAME.tar.gz" >&2
say "test it with: packaging/test_frozen.sh dist"
