#!/usr/bin/env bash
# Run every CLI command of a frozen Capacity Advisor build and fail loudly on any error.
#
#   packaging/test_frozen.sh DIST_DIR        e.g. packaging/test_frozen.sh dist
#
# DIST_DIR holds the outputs of packaging/build.sh (the one-folder build is tested in full; the
# one-file build, when present, with a smoke set). It may also be the one-folder build itself.
# A sub-command that this build does not register yet (not listed by `capadvisor --help`) is
# skipped with a message; everything else must pass. Runs in a temporary HOME, never touches
# the real user's files, and checks that nothing is written inside the bundle.
# Needs: bash, coreutils (timeout), python3 (to read JSON output). Exit status: 0 all passed, 1 not.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
DIST=$(cd "$1" 2>/dev/null && pwd) || { echo "test_frozen: no such directory: $1" >&2; exit 2; }
PY3=$(command -v python3 || true)
[ -n "$PY3" ] || { echo "test_frozen: python3 is needed to check JSON output" >&2; exit 2; }
TIMEOUT=${CAPADVISOR_TEST_TIMEOUT:-180}

if [ -x "$DIST/capadvisor" ] && [ -d "$DIST/_internal" ]; then
  ONEDIR=$DIST; ONEFILE=""
else
  ONEDIR=$(find "$DIST" -mindepth 1 -maxdepth 1 -type d -name 'capadvisor-*-linux-x86_64' | sort | tail -1)
  ONEFILE=$(find "$DIST" -mindepth 1 -maxdepth 1 -type f -name 'capadvisor-*-linux-x86_64-onefile' | sort | tail -1)
fi
[ -n "$ONEDIR" ] && [ -x "$ONEDIR/capadvisor" ] || { echo "test_frozen: no one-folder build in $DIST" >&2; exit 1; }
EXE=$ONEDIR/capadvisor
BUNDLE=$ONEDIR/_internal
VERSION=$(sed -n 's/^__version__ *= *["'"'"']\([^"'"'"']*\)["'"'"'].*/\1/p' "$ROOT/app/__init__.py")

TMP=$(mktemp -d "${TMPDIR:-/tmp}/capadvisor-frozen.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/home" "$TMP/out" "$TMP/work"
# a clean user: every user directory comes from platformdirs under this HOME
export HOME=$TMP/home
unset XDG_DATA_HOME XDG_CACHE_HOME XDG_CONFIG_HOME XDG_STATE_HOME
unset CAPADVISOR_DATA_DIR CAPADVISOR_CACHE_DIR CAPADVISOR_CONFIG_DIR PYTHONPATH PYTHONHOME
export QT_QPA_PLATFORM=offscreen
cd "$TMP/work"

PASS=0; FAIL=0; SKIP=0; FAILED=()
ok() { PASS=$((PASS + 1)); printf '  ok    %s\n' "$1"; }
bad() { FAIL=$((FAIL + 1)); FAILED+=("$1"); printf '  FAIL  %s: %s\n' "$1" "$2"; }
skip() { SKIP=$((SKIP + 1)); printf '  skip  %s: %s\n' "$1" "$2"; }

# run ID EXPECTED_STATUS CMD...: EXPECTED_STATUS is 0 or "nonzero"; output kept in $TMP/out/ID.*
run() {
  local id=$1 want=$2; shift 2
  timeout "$TIMEOUT" "$@" >"$TMP/out/$id.out" 2>"$TMP/out/$id.err"
  local rc=$?
  echo "$rc" >"$TMP/out/$id.rc"
  if [ "$rc" = 124 ]; then bad "$id" "timed out after ${TIMEOUT}s"; return 1; fi
  if grep -q -E 'Traceback \(most recent call last\)|ModuleNotFoundError|ImportError' \
      "$TMP/out/$id.out" "$TMP/out/$id.err"; then
    bad "$id" "a traceback or import error (exit $rc):"; sed 's/^/        /' "$TMP/out/$id.err" | tail -25
    return 1
  fi
  if { [ "$want" = 0 ] && [ "$rc" != 0 ]; } || { [ "$want" = nonzero ] && [ "$rc" = 0 ]; }; then
    bad "$id" "exit status $rc, expected $want:"; sed 's/^/        /' "$TMP/out/$id.err" | tail -25
    return 1
  fi
  return 0
}

# json_check ID FILE PYTHON_EXPR: EXPR sees the parsed document as d and must be true
json_check() {
  local id=$1 file=$2 expr=$3 msg
  if msg=$("$PY3" - "$file" "$expr" 2>&1 <<'PYEOF'
import json, sys
with open(sys.argv[1], encoding="utf-8") as fh:
    d = json.load(fh)
if not eval(sys.argv[2], {"d": d}):
    sys.exit(f"not true: {sys.argv[2]}")
PYEOF
  ); then ok "$id"; else bad "$id" "$msg"; fi
}

# expect_text ID FILE REGEX: FILE must contain REGEX
expect_text() {
  if grep -q -E -- "$3" "$2"; then ok "$1"; else bad "$1" "output lacks /$3/: $(head -c 300 "$2")"; fi
}

STAMP=$TMP/stamp; touch "$STAMP"; sleep 1

echo "== bundle contents ($ONEDIR)"
for f in resources/data/knowledge.sqlite knowledge/data knowledge/schema/kb.sql \
         PySide6/Qt/plugins/platforms/libqoffscreen.so PySide6/Qt/plugins/platforms/libqxcb.so; do
  if [ -e "$BUNDLE/$f" ]; then ok "bundled $f"; else bad "bundled $f" "missing from $BUNDLE"; fi
done

echo "== --version, --help"
run version 0 "$EXE" --version && expect_text version "$TMP/out/version.out" "^capadvisor $VERSION\$"
run help 0 "$EXE" --help && expect_text help "$TMP/out/help.out" "usage: capadvisor"
registered() { grep -q -E "^    $1( |\$)" "$TMP/out/help.out"; }
have() {  # have COMMAND: true when registered, else say it is skipped
  if registered "$1"; then return 0; fi
  skip "$1" "command '$1' is not registered in this build (capadvisor --help does not list it)"
  return 1
}
for c in gui advise inventory kb rt probe import sites replay; do
  registered "$c" || printf '  note  %s is not registered yet\n' "$c"
done

echo "== kb"
if have kb; then
  run kb-stats 0 "$EXE" kb stats && expect_text kb-stats "$TMP/out/kb-stats.out" "measurements, [0-9]+ testbeds"
  run kb-stats-json 0 "$EXE" kb stats --format json \
    && json_check kb-stats-json "$TMP/out/kb-stats-json.out" "d['measurements'] > 1000"
  if ls "$HOME"/.cache/capadvisor/knowledge-*.sqlite >/dev/null 2>&1; then
    bad kb-bundled "the knowledge base was compiled into the cache instead of using the bundled one"
  else ok kb-bundled; fi
  run kb-query 0 "$EXE" kb query --document 001 --locator "Table 1" \
    && expect_text kb-query "$TMP/out/kb-query.out" "[1-9][0-9]* measurement"
  run kb-query-json 0 "$EXE" kb query --metric downtime --where hypervisor=KVM --format json \
    && json_check kb-query-json "$TMP/out/kb-query-json.out" "len(d) > 0 and all(r['metric'] == 'downtime' for r in d)"
  run kb-export 0 "$EXE" kb export --format csv -o "$TMP/work/measurements.csv" \
    && json_check kb-export "$TMP/out/kb-stats-json.out" \
      "d['measurements'] + 1 == sum(1 for _ in open('$TMP/work/measurements.csv', encoding='utf-8'))"
  run kb-export-json 0 "$EXE" kb export --format json \
    && json_check kb-export-json "$TMP/out/kb-export-json.out" "len(d) > 1000"
  run kb-testbeds 0 "$EXE" kb testbeds --format json \
    && json_check kb-testbeds "$TMP/out/kb-testbeds.out" "len(d) > 0"
  run kb-conclusions 0 "$EXE" kb conclusions --format json \
    && json_check kb-conclusions "$TMP/out/kb-conclusions.out" "len(d) > 0"
  run kb-validate 0 "$EXE" kb validate && expect_text kb-validate "$TMP/out/kb-validate.out" "^ok:"
  run kb-build 0 "$EXE" kb build "$TMP/work/kb.sqlite" && expect_text kb-build "$TMP/out/kb-build.out" "wrote"
  run kb-bad-input nonzero "$EXE" kb query --where nonsense \
    && expect_text kb-bad-input "$TMP/out/kb-bad-input.err" "error"
fi

SCENARIO=$BUNDLE/resources/examples/scenario.yaml
echo "== advise"
if have advise; then
  if [ ! -f "$SCENARIO" ]; then bad advise "the example scenario is not in the bundle ($SCENARIO)"
  else
    run advise-json 0 "$EXE" advise "$SCENARIO" --format json \
      && json_check advise-json "$TMP/out/advise-json.out" \
        "len(d['recommendations']) > 0 and all({'decision', 'choice', 'citations'} <= set(r) for r in d['recommendations'])"
    for fmt in md html; do
      run "advise-$fmt" 0 "$EXE" advise "$SCENARIO" --format "$fmt" -o "$TMP/work/advice.$fmt" \
        && { [ -s "$TMP/work/advice.$fmt" ] && ok "advise-$fmt" || bad "advise-$fmt" "empty report"; }
    done
    for fmt in xlsx pptx; do  # the workbook and the slide deck (its charts drawn offscreen): zip files
      run "advise-$fmt" 0 "$EXE" advise "$SCENARIO" --format "$fmt" -o "$TMP/work/advice.$fmt" \
        && { [ "$(head -c 2 "$TMP/work/advice.$fmt")" = PK ] && ok "advise-$fmt" || bad "advise-$fmt" "not a zip file"; }
    done
  fi
fi

echo "== replay"
if have replay; then
  # the documents' experiments ship with the app (resources/replay) and replay against the bundled
  # knowledge base: the in-sample bar must pass (exit 0) and every document must be listed
  if ls "$BUNDLE"/resources/replay/*.yaml >/dev/null 2>&1; then ok "bundled resources/replay"
  else bad "bundled resources/replay" "no replay files in $BUNDLE/resources/replay"; fi
  run replay-json 0 "$EXE" replay --format json \
    && json_check replay-json "$TMP/out/replay-json.out" \
      "d['summary']['ok'] and d['summary']['experiments'] > 0 and len(d['documents']) == 5"
  run replay-doc 0 "$EXE" replay --document 001 --format text \
    && expect_text replay-doc "$TMP/out/replay-doc.out" "experiments pass .*PASS"
  run replay-bad nonzero "$EXE" replay --suite "$TMP/work/no-such-suite" \
    && expect_text replay-bad "$TMP/out/replay-bad.err" "no replay suite there"
fi

INV=$ROOT/tests/fixtures/inventory
echo "== inventory"
if have inventory; then
  # an RVTools workbook (openpyxl) and a libvirt domain (defusedxml): both libraries are in the bundle;
  # the workbook is the generated RVTools 4.x one (41 VMs), written as RVTools writes (standard library only)
  "$PY3" -c "import sys, pathlib; sys.path.insert(0, sys.argv[1]); from tests.knowledge import rvtools_workbooks as g; g.write('rvtools-4x-sdk.xlsx', pathlib.Path(sys.argv[2]))" "$ROOT" "$TMP/work" >/dev/null
  run inventory-json 0 "$EXE" inventory "$TMP/work/rvtools-4x-sdk.xlsx" "$INV/libvirt/disk-cache.xml" --no-advise \
      --format json -o "$TMP/work/estate.yaml" \
    && json_check inventory-json "$TMP/out/inventory-json.out" \
      "d['found']['vms'] == 42 and d['totals']['scenario']['vcpus'] == d['totals']['source']['vcpus']"
  run inventory-advise 0 "$EXE" advise "$TMP/work/estate.yaml" --format json \
    && json_check inventory-advise "$TMP/out/inventory-advise.out" "len(d['today']) > 0"
  printf '<!DOCTYPE d [<!ENTITY a "aaaa">]><domain><name>&a;</name></domain>' >"$TMP/work/bomb.xml"
  run inventory-bomb nonzero "$EXE" inventory "$TMP/work/bomb.xml" --no-advise \
    && expect_text inventory-bomb "$TMP/out/inventory-bomb.err" "bomb.xml: refused"
fi

echo "== rt"
if have rt; then
  TASKS=$(find "$BUNDLE/resources/examples" -maxdepth 2 -type f \( -iname 'rt_*.csv' -o -iname '*task*.csv' \) 2>/dev/null | sort | head -1)
  if [ -z "$TASKS" ]; then
    TASKS=$TMP/work/tasks.csv
    printf 'name,period,wcet\nt1,10,1\nt2,20,2\nt3,40,4\n' >"$TASKS"
    printf '  note  no task-set example in the bundle: using %s\n' "$TASKS"
  fi
  run rt-share 0 "$EXE" rt "$TASKS" --share 0.6 --format json \
    && json_check rt-share "$TMP/out/rt-share.out" \
      "{'share', 'overhead', 'max_period', 'budget', 'critical_task', 'feasible_intervals', 'response_times'} <= set(d)"
  run rt-text 0 "$EXE" rt "$TASKS" --share 0.6
  [ -s "$TMP/out/rt-text.out" ] && ok rt-text || bad rt-text "no output"
fi

echo "== probe"
if have probe; then
  run probe-json 0 "$EXE" probe --format json \
    && json_check probe-json "$TMP/out/probe-json.out" \
      "{'cpu', 'memory', 'disks', 'nics', 'kvm_available', 'is_virtual_machine', 'sources'} <= set(d) and d['memory']['total_bytes'] > 0"
  run probe-scenario 0 "$EXE" probe --scenario-out "$TMP/work/host.capadvisor.yaml" \
    && { [ -s "$TMP/work/host.capadvisor.yaml" ] && ok probe-scenario || bad probe-scenario "no scenario written"; }
fi

FIXTURES=$ROOT/tests/knowledge/importers/fixtures
FIO=$FIXTURES/fio3_randrw_2jobs.json
echo "== import"
if have import; then
  if [ ! -f "$FIO" ]; then bad import "fixture $FIO is missing"
  else
    run import-dry 0 "$EXE" import "$FIO" --dry-run --format json \
      && json_check import-dry "$TMP/out/import-dry.out" \
        "len(d['files']) == 1 and d['files'][0]['tool'] and len(d['files'][0]['measurements']) > 0"
    for f in "$FIXTURES"/bonnie2_csv.txt "$FIXTURES"/fio3_randrw_2jobs.txt; do
      [ -f "$f" ] || continue
      id="import-dry-$(basename "$f")"
      run "$id" 0 "$EXE" import "$f" --dry-run --format json \
        && json_check "$id" "$TMP/out/$id.out" "len(d['files'][0]['measurements']) > 0"
    done
    run import-store 0 "$EXE" import "$FIO" --site frozen-test-site && ok import-store
    run import-bad nonzero "$EXE" import "$TMP/work/measurements.csv" --dry-run \
      && ok import-bad
  fi
fi

echo "== sites"
if have sites; then
  run sites-list 0 "$EXE" sites list && ok sites-list
  if registered import && [ -f "$FIO" ]; then
    expect_text sites-list-has-import "$TMP/out/sites-list.out" "frozen-test-site"
  fi
fi

echo "== user directories not writable"
touch "$TMP/not-a-dir"
if registered import && [ -f "$FIO" ]; then
  CAPADVISOR_DATA_DIR=$TMP/not-a-dir/data run unwritable nonzero "$EXE" import "$FIO" --site x \
    && expect_text unwritable "$TMP/out/unwritable.err" "not-a-dir"
elif registered sites; then
  CAPADVISOR_DATA_DIR=$TMP/not-a-dir/data run unwritable nonzero "$EXE" sites list \
    && expect_text unwritable "$TMP/out/unwritable.err" "not-a-dir"
else
  skip unwritable "neither import nor sites is registered"
fi

echo "== gui"
if have gui; then
  if [ ! -f "$SCENARIO" ]; then bad gui-screenshots "the example scenario is not in the bundle"
  else
    if run gui-screenshots 0 "$EXE" gui --scenario "$SCENARIO" --screenshots "$TMP/shots"; then
      n=$(find "$TMP/shots" -name '*.png' 2>/dev/null | wc -l)
      first=$(find "$TMP/shots" -name '*.png' 2>/dev/null | head -1)
      if [ "$n" -gt 0 ] && [ "$(head -c 8 "$first" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; then
        ok "gui-screenshots ($n images)"
      else bad gui-screenshots "no PNG images in $TMP/shots"; fi
    fi
  fi
  # the X11 platform plug-in with the bundled libraries, on a virtual X server when there is one
  if command -v xvfb-run >/dev/null 2>&1 && [ -f "$SCENARIO" ]; then
    if run gui-xcb 0 env QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1280x800x24" \
        "$EXE" gui --scenario "$SCENARIO" --screenshots "$TMP/shots-xcb"; then
      [ -n "$(find "$TMP/shots-xcb" -name '*.png' 2>/dev/null)" ] && ok "gui-xcb (X11 through xvfb-run)" \
        || bad gui-xcb "no PNG images in $TMP/shots-xcb"
    fi
  else
    skip gui-xcb "xvfb-run is not installed (apt package xvfb): the xcb plug-in is not exercised"
  fi
  # no display at all: the GUI must say why and exit non-zero, not hang or crash silently
  for id in gui-no-display no-args-no-display; do
    args=(gui); [ "$id" = no-args-no-display ] && args=()
    if run "$id" nonzero env -u QT_QPA_PLATFORM -u DISPLAY -u WAYLAND_DISPLAY "$EXE" "${args[@]}"; then
      said=$(cat "$TMP/out/$id.err" "$TMP/out/$id.out" | grep -v '^[[:space:]]*$' | head -1)
      if [ -n "$said" ]; then ok "$id (exit $(cat "$TMP/out/$id.rc"): $said)"
      else bad "$id" "exited non-zero without saying why"; fi
    fi
  done
fi

echo "== the bundle stays read-only"
changed=$(find "$ONEDIR" -newer "$STAMP" | head -5)
if [ -z "$changed" ]; then ok "nothing written inside the bundle"; else bad bundle-written "$changed"; fi
written=$(find "$HOME" -type f | head -1)
[ -n "$written" ] && ok "user files go under HOME ($(find "$HOME" -type f | wc -l) files)" || true

if [ -n "$ONEFILE" ]; then
  echo "== one-file build ($ONEFILE)"
  run onefile-version 0 "$ONEFILE" --version && expect_text onefile-version "$TMP/out/onefile-version.out" "^capadvisor $VERSION\$"
  run onefile-kb 0 "$ONEFILE" kb stats --format json \
    && json_check onefile-kb "$TMP/out/onefile-kb.out" "d['measurements'] > 1000"
  if registered probe; then
    run onefile-probe 0 "$ONEFILE" probe --format json && json_check onefile-probe "$TMP/out/onefile-probe.out" "'cpu' in d"
  fi
  if registered gui && [ -f "$SCENARIO" ]; then
    run onefile-gui 0 "$ONEFILE" gui --scenario "$SCENARIO" --screenshots "$TMP/shots1" \
      && { [ -n "$(find "$TMP/shots1" -name '*.png' 2>/dev/null)" ] && ok onefile-gui || bad onefile-gui "no PNG images"; }
  fi
fi

echo
echo "test_frozen: $PASS passed, $FAIL failed, $SKIP skipped"
if [ "$FAIL" -gt 0 ]; then
  printf 'test_frozen: FAILED: %s\n' "${FAILED[*]}" >&2
  exit 1
fi
exit 0
