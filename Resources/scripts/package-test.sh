#!/usr/bin/env bash
# `make package-test`: the Debian package from `make deb`, checked as a user would get it:
# its fields, unpacked (no build tree, no toolchain on the path) it plays a clip headless, and —
# as root, with apt — installed, played from /usr/bin/reel, and removed.
#
#   package-test.sh DEB
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
deb=$(realpath "${1:?deb}")
clip="$root/Resources/media/clip2s.mp4"
[ -f "$clip" ] || bash "$here/make-media.sh" >/dev/null
fail() { echo "package-test: $*" >&2; exit 1; }

dpkg-deb -f "$deb" Package | grep -qx reel || fail "not the reel package"
dpkg-deb -f "$deb" Depends | grep -q gstreamer1.0-plugins-good || fail "Depends lacks GStreamer's plugins"
files=$(dpkg-deb -c "$deb")
for f in ./usr/bin/reel ./usr/share/applications/io.github.reel_player.Reel.desktop ./usr/share/dbus-1/services/io.github.reel_player.Reel.service ./usr/share/metainfo/io.github.reel_player.Reel.metainfo.xml \
         ./usr/share/icons/hicolor/scalable/apps/reel.svg ./usr/share/locale/de/LC_MESSAGES/reel.mo; do
  grep -q " $f\$" <<<"$files" || fail "$f is not in the package"
done

# Modes are Debian's, whatever the builder's umask: the root entry and folders 0755, nothing
# writable by group or others, the program 0755 (mktemp's 0700 once became the root entry).
grep -q '^drwxr-xr-x [^ ]* *[0-9]* [0-9-]* [0-9:]* \./$' <<<"$files" || fail "the package's root entry is not 0755: $(head -1 <<<"$files")"
bad=$(awk '$1 ~ /^d/ && $1 != "drwxr-xr-x" || $1 ~ /^-/ && $1 != "-rw-r--r--" && $1 != "-rwxr-xr-x" {print $1, $NF}' <<<"$files")
[ -z "$bad" ] || fail "entries with modes other than 0755/0644: $bad"
grep -q '^-rwxr-xr-x .* \./usr/bin/reel$' <<<"$files" || fail "usr/bin/reel is not 0755"

unpacked=$(mktemp -d)
trap 'rm -rf "$unpacked"' EXIT
dpkg-deb -x "$deb" "$unpacked"
# No Swift toolchain reachable: the runtime must be in the binary.
if env -i PATH=/usr/bin:/bin HOME="$unpacked" ldd "$unpacked/usr/bin/reel" | grep -q "not found"; then fail "a library is missing: $(ldd "$unpacked/usr/bin/reel" | grep 'not found')"; fi
ldd "$unpacked/usr/bin/reel" | grep -qi swift && fail "links a Swift library from the toolchain"
env -i PATH=/usr/bin:/bin HOME="$unpacked" XDG_STATE_HOME="$unpacked/state" \
  "$unpacked/usr/bin/reel" --headless --no-resume --audio-sink fakesink --video-sink fakesink "$clip" || fail "the unpacked reel did not play $clip"
echo "package-test: the unpacked package plays $clip"

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  apt-get install -y -qq "$deb" >/dev/null || fail "apt could not install $deb"
  env -i PATH=/usr/bin:/bin HOME=/tmp XDG_STATE_HOME="$unpacked/state2" \
    /usr/bin/reel --headless --no-resume --audio-sink fakesink --video-sink fakesink "$clip" || fail "the installed reel did not play"
  desktop-file-validate /usr/share/applications/io.github.reel_player.Reel.desktop || fail "the installed desktop entry is not valid"
  apt-get remove -y -qq reel >/dev/null
  echo "package-test: installed with apt, played from /usr/bin/reel, removed"
else
  echo "package-test: not root: the apt install step is skipped"
fi
