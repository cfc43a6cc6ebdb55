#!/usr/bin/env bash
# Builds a Debian package of Reel from a release build: the binary (Swift's runtime and
# Foundation linked in: nothing of the toolchain needed on the target), the desktop entry, the
# AppStream metainfo, the icon and the translations, staged by install.sh under /usr.
# `Depends` are the run-time packages setup.sh installs (GStreamer's plugins, GTK 3), with the
# shared libraries the binary links (dpkg-shlibdeps) when it can tell.
#
#   make-deb.sh BINARY OUT_DIR      e.g. make-deb.sh .build/release/reel .build
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
binary=${1:?binary}
out=${2:?output directory}
version=$(sed -n 's/.*<release version="\([^"]*\)".*/\1/p' "$root/Resources/io.github.reel_player.Reel.metainfo.xml" | head -1)
arch=$(dpkg --print-architecture)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

DESTDIR="$stage" bash "$here/install.sh" /usr "$binary" >/dev/null
# Libraries the binary links, as package names (dpkg-shlibdeps needs a debian/ tree to run in).
shlibs=""
if command -v dpkg-shlibdeps >/dev/null; then
  mkdir -p "$stage/debian"
  printf 'Source: reel\n\nPackage: reel\nArchitecture: any\n' > "$stage/debian/control"
  shlibs=$(cd "$stage" && dpkg-shlibdeps -O "usr/bin/reel" 2>/dev/null | sed -n 's/^shlibs:Depends=//p') || shlibs=""
  rm -rf "$stage/debian"
fi
runtime="gstreamer1.0-plugins-base, gstreamer1.0-plugins-good, gstreamer1.0-plugins-bad, gstreamer1.0-plugins-ugly, gstreamer1.0-libav, gstreamer1.0-gtk3, gstreamer1.0-x, gstreamer1.0-gl, libgtk-3-0"
size=$(du -sk "$stage/usr" | cut -f1)
mkdir -p "$stage/DEBIAN"
cat > "$stage/DEBIAN/control" <<CONTROL
Package: reel
Version: $version
Architecture: $arch
Maintainer: Reel maintainers <reel@reel-player.invalid>
Installed-Size: $size
Depends: ${shlibs:+$shlibs, }$runtime
Section: video
Priority: optional
Homepage: https://github.com/reel-player/reel
Description: media player for files, playlists and protected live streams
 Reel plays files, URLs and playlists (M3U, PLS, XSPF), HLS and DASH, live streams with
 restart and catch-up, and streams that need a header or a token on every request. It has
 chapters, subtitles, key bindings in mpv's input.conf form, MPRIS, a control socket, and QA
 tools: reel check (a report of every item) and reel review (a person's verdicts and notes).
CONTROL
# Modes as Debian's policy wants them, whatever the builder's umask (mktemp -d makes the root
# entry 0700, which dpkg then applied to the target's /): folders and programs 0755, files 0644.
chmod 0755 "$stage"
find "$stage" -type d -exec chmod 0755 {} +
find "$stage" -type f -exec chmod 0644 {} +
chmod 0755 "$stage/usr/bin/reel"
mkdir -p "$out"
deb="$out/reel_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "$deb"
