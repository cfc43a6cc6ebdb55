#!/usr/bin/env bash
# Installs Reel: the binary, the desktop entry and its D-Bus service, the AppStream metainfo and the icon, then refreshes the desktop caches
# when their tools exist.
#
#   install.sh PREFIX BINARY        e.g. install.sh /usr/local .build/release/reel
#   make install PREFIX=~/.local    (PREFIX defaults to /usr/local; DESTDIR is honoured for packaging)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
prefix=${1:-}
binary=${2:-"$root/.build/release/reel"}
[ -n "$prefix" ] || prefix=/usr/local
prefix=${prefix%/}
dest="${DESTDIR:-}$prefix"

if [ ! -x "$binary" ]; then
  echo "install.sh: $binary is not built (run: swift build -c release)" >&2
  exit 1
fi
if ! mkdir -p "$dest/bin" 2>/dev/null || [ ! -w "$dest/bin" ]; then
  echo "install.sh: cannot write to $dest (try PREFIX=\$HOME/.local, or run as root)" >&2
  exit 1
fi

install -m 0755 "$binary" "$dest/bin/reel"
# The build keeps its debug information (45 of a release binary's 143 MB); the installed
# copy goes without it, as distributions ship theirs (function names stay for backtraces).
command -v strip >/dev/null && strip --strip-debug "$dest/bin/reel"
# The entry's name is the app's D-Bus name (DBusActivatable=true: a file manager asks the bus,
# which starts Reel through the service file when none is open).
install -D -m 0644 "$root/Resources/io.github.reel_player.Reel.desktop" "$dest/share/applications/io.github.reel_player.Reel.desktop"
mkdir -p "$dest/share/dbus-1/services"
sed "s|@bindir@|$prefix/bin|" "$root/Resources/io.github.reel_player.Reel.service" > "$dest/share/dbus-1/services/io.github.reel_player.Reel.service"
chmod 0644 "$dest/share/dbus-1/services/io.github.reel_player.Reel.service"
install -D -m 0644 "$root/Resources/icons/reel.svg" "$dest/share/icons/hicolor/scalable/apps/reel.svg"
install -D -m 0644 "$root/Resources/io.github.reel_player.Reel.metainfo.xml" "$dest/share/metainfo/io.github.reel_player.Reel.metainfo.xml"
# Translations (po/*.po, compiled here; the binary looks in ../share/locale).
for po in "$root"/po/*.po; do
  [ -e "$po" ] || continue
  lang=$(basename "$po" .po)
  mkdir -p "$dest/share/locale/$lang/LC_MESSAGES"
  msgfmt --check -o "$dest/share/locale/$lang/LC_MESSAGES/reel.mo" "$po"
done

# Desktop caches: only for a live install (not when staging into DESTDIR).
if [ -z "${DESTDIR:-}" ]; then
  command -v update-desktop-database >/dev/null && update-desktop-database -q "$dest/share/applications" || true
  command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t -f "$dest/share/icons/hicolor" 2>/dev/null || true
fi

echo "Installed Reel in $dest:"
echo "  $dest/bin/reel"
echo "  $dest/share/applications/io.github.reel_player.Reel.desktop"
echo "  $dest/share/dbus-1/services/io.github.reel_player.Reel.service"
echo "  $dest/share/metainfo/io.github.reel_player.Reel.metainfo.xml"
echo "  $dest/share/icons/hicolor/scalable/apps/reel.svg"
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "Note: $prefix/bin is not on your PATH." ;; esac
