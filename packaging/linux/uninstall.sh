#!/usr/bin/env bash
# Remove what install.sh put in the current user's home.
#
#   uninstall.sh           the program, the capadvisor symlink, the menu entry, icon and MIME type
#   uninstall.sh --purge   also your data, settings and cache (sites, imports, projects: gone for good)
#
# XDG_DATA_HOME, XDG_CONFIG_HOME and XDG_CACHE_HOME are honoured like install.sh and the app do.
set -euo pipefail
say() { printf '[uninstall] %s\n' "$*"; }
purge=0
case "${1:-}" in
  "") ;;
  --purge) purge=1 ;;
  -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) printf '[uninstall] error: unknown option %s (see --help)\n' "$1" >&2; exit 2 ;;
esac
[ -n "${HOME:-}" ] || { echo "[uninstall] error: HOME is not set" >&2; exit 1; }

DATA=${XDG_DATA_HOME:-$HOME/.local/share}
APPDIR=$DATA/capadvisor
PROGRAM=$APPDIR/program
LINK=$HOME/.local/bin/capadvisor

if [ -L "$LINK" ]; then
  case "$(readlink "$LINK")" in
    "$PROGRAM"/*) rm -f "$LINK"; say "removed $LINK" ;;
    *) say "left $LINK alone: it points elsewhere ($(readlink "$LINK"))" ;;
  esac
fi
rm -rf "$PROGRAM" "$PROGRAM.new" "$PROGRAM.old"
rm -f "$DATA/applications/capadvisor.desktop" \
  "$DATA/icons/hicolor/scalable/apps/capadvisor.svg" \
  "$DATA/icons/hicolor/scalable/mimetypes/application-x-capadvisor-scenario.svg" \
  "$DATA/mime/packages/capadvisor.xml"
say "removed the program, menu entry, icon and scenario file type"

if command -v update-desktop-database >/dev/null 2>&1 && [ -d "$DATA/applications" ]; then
  update-desktop-database -q "$DATA/applications" || true
fi
if command -v update-mime-database >/dev/null 2>&1 && [ -d "$DATA/mime" ]; then
  update-mime-database "$DATA/mime" >/dev/null 2>&1 || true
fi

if [ "$purge" = 1 ]; then
  rm -rf "$APPDIR" "${XDG_CONFIG_HOME:-$HOME/.config}/capadvisor" "${XDG_CACHE_HOME:-$HOME/.cache}/capadvisor"
  say "removed your Capacity Advisor data, settings and cache"
else
  rmdir "$APPDIR" 2>/dev/null || { [ -d "$APPDIR" ] && say "kept your data in $APPDIR (uninstall.sh --purge removes it)"; }
fi
