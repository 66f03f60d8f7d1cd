#!/usr/bin/env bash
# Install a one-folder build of Capacity Advisor for the current user (no root needed).
#
#   install.sh [BUILD_DIR]
#
# BUILD_DIR is the one-folder build (the folder holding the `capadvisor` executable). By default:
# the build this script ships in (BUILD_DIR/linux/install.sh), else the newest
# dist/capadvisor-*-linux-x86_64 of the source tree. What it does:
#   ~/.local/share/capadvisor/program/          the program (replaces an earlier install)
#   ~/.local/bin/capadvisor                     a symlink to it
#   ~/.local/share/applications/capadvisor.desktop, the icon (hicolor theme) and the MIME type
#   application/x-capadvisor-scenario (*.capadvisor.yaml), then refreshes the desktop and MIME
#   databases when update-desktop-database / update-mime-database are installed.
# Your own data (~/.local/share/capadvisor/user.sqlite, settings, cache) is never touched.
# XDG_DATA_HOME is honoured in place of ~/.local/share. Undo with uninstall.sh.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
say() { printf '[install] %s\n' "$*"; }
die() { printf '[install] error: %s\n' "$*" >&2; exit 1; }

case "${1:-}" in -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
if [ $# -ge 1 ]; then
  BUILD=$1
elif [ -x "$HERE/../capadvisor" ]; then
  BUILD=$HERE/..
else
  BUILD=$(find "$HERE/../../dist" -mindepth 1 -maxdepth 1 -type d -name 'capadvisor-*-linux-x86_64' 2>/dev/null | sort -V | tail -1)
  [ -n "$BUILD" ] || die "no build found: run packaging/build.sh first, or give the build folder"
fi
BUILD=$(cd "$BUILD" 2>/dev/null && pwd) || die "no such folder: $BUILD"
[ -x "$BUILD/capadvisor" ] && [ -d "$BUILD/_internal" ] \
  || die "$BUILD is not a one-folder build of Capacity Advisor (no capadvisor executable and _internal/)"
[ -n "${HOME:-}" ] && [ -d "$HOME" ] || die "HOME is not set to a directory"

# the files that come with the program: next to this script, else in the build's linux/ folder
SHARE=$HERE
[ -f "$SHARE/capadvisor.desktop" ] || SHARE=$BUILD/linux
for f in capadvisor.desktop capadvisor-mime.xml capadvisor.svg capadvisor-launch uninstall.sh; do
  [ -f "$SHARE/$f" ] || die "missing $SHARE/$f"
done

# one icon for the window and the menu: the app's own when the build carries one
ICON=$SHARE/capadvisor.svg
[ -f "$BUILD/_internal/resources/icons/capadvisor.svg" ] && ICON=$BUILD/_internal/resources/icons/capadvisor.svg

version=$("$BUILD/capadvisor" --version 2>&1) || die "the build does not run: $version"

DATA=${XDG_DATA_HOME:-$HOME/.local/share}
APPDIR=$DATA/capadvisor
PROGRAM=$APPDIR/program
BIN=$HOME/.local/bin
[ "$BUILD" != "$(cd "$PROGRAM" 2>/dev/null && pwd)" ] || die "$BUILD is the installed copy: install from the build instead"
LINK=$BIN/capadvisor
if [ -e "$LINK" ] || [ -L "$LINK" ]; then
  [ -L "$LINK" ] || die "$LINK exists and is not a symlink: move it away first"
fi

say "installing $version from $BUILD"
mkdir -p "$APPDIR" "$BIN"
rm -rf "$PROGRAM.new"
cp -a "$BUILD/." "$PROGRAM.new/"
mkdir -p "$PROGRAM.new/linux"
cp "$SHARE"/capadvisor-launch "$SHARE"/uninstall.sh "$PROGRAM.new/linux/"
chmod +x "$PROGRAM.new/linux/capadvisor-launch"
rm -rf "$PROGRAM.old"
[ -d "$PROGRAM" ] && mv "$PROGRAM" "$PROGRAM.old"
mv "$PROGRAM.new" "$PROGRAM"
rm -rf "$PROGRAM.old"
ln -sfn "$PROGRAM/capadvisor" "$LINK"

mkdir -p "$DATA/applications" "$DATA/icons/hicolor/scalable/apps" \
  "$DATA/icons/hicolor/scalable/mimetypes" "$DATA/mime/packages"
sed "s|^Exec=capadvisor-launch|Exec=\"$PROGRAM/linux/capadvisor-launch\"|" "$SHARE/capadvisor.desktop" \
  > "$DATA/applications/capadvisor.desktop"
cp "$ICON" "$DATA/icons/hicolor/scalable/apps/capadvisor.svg"
cp "$ICON" "$DATA/icons/hicolor/scalable/mimetypes/application-x-capadvisor-scenario.svg"
cp "$SHARE/capadvisor-mime.xml" "$DATA/mime/packages/capadvisor.xml"

if command -v update-desktop-database >/dev/null 2>&1; then
  update-desktop-database -q "$DATA/applications" || say "update-desktop-database failed (ignored)"
fi
if command -v update-mime-database >/dev/null 2>&1; then
  update-mime-database "$DATA/mime" >/dev/null 2>&1 || say "update-mime-database failed (ignored)"
fi
if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$DATA/icons/hicolor/index.theme" ]; then
  gtk-update-icon-cache -q -t -f "$DATA/icons/hicolor" || true
fi

say "installed into $PROGRAM"
say "command: $LINK"
case ":$PATH:" in *":$BIN:"*) ;; *) say "note: $BIN is not on your PATH; add it to run 'capadvisor' from a shell" ;; esac
say "Capacity Advisor is in your applications menu; *.capadvisor.yaml files open with it"
