#!/usr/bin/env bash
# Installs what Reel needs to build, run, test and benchmark, from Debian's packages
# (with --bench, also the players `make bench` compares Reel with).
# Idempotent and quick when everything is there (one dpkg-query). Runs apt as root or via sudo.
set -euo pipefail

PACKAGES=(
  # build (binutils: the linker Swift uses, and strip for `make install`)
  binutils pkg-config libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev libgtk-3-dev libglib2.0-dev
  # run
  gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad
  gstreamer1.0-plugins-ugly gstreamer1.0-libav gstreamer1.0-gtk3 gstreamer1.0-x gstreamer1.0-gl
  # media generation, tests, benchmarks (rsvg-convert is ImageMagick's SVG delegate for the icon test)
  gstreamer1.0-tools gstreamer1.0-plugins-base-apps xvfb xauth x11-utils imagemagick xdotool
  dbus dbus-x11 playerctl fonts-dejavu-core libglib2.0-bin openssl python3 time
  librsvg2-bin desktop-file-utils appstream xxd
  # streams as real packagers write them (test media only: Reel never runs ffmpeg)
  ffmpeg
  # a real Wayland compositor for the window tests (weston headless, with and without Xwayland)
  weston xwayland
  python3-gi python3-gst-1.0
  # a private PulseAudio server for the audio-focus tests (stream role read back, a call corks)
  pulseaudio pulseaudio-utils
  # NetworkManager mocked on a private system bus for the network-policy tests (GIO reads it)
  python3-dbusmock
  # reel check: the JUnit file validated against its schema; shards run with GNU parallel; the
  # Kubernetes Job and Argo Workflow of docs/QA.md read as YAML (CheckFanOutTests)
  libxml2-utils parallel python3-yaml
  # a hung or vanished child process in a test leaves its stacks in the log (StackDump)
  gdb
  # the stand-in hardware decoder the --hwdec tests build (Resources/test-elements; tests only)
  gcc libc6-dev
  # accessibility: GTK's AT-SPI bridge (run) and the tests that read the window as Orca does
  libatk-adaptor at-spi2-core python3-pyatspi gir1.2-atspi-2.0
  # translations (make pot, msgfmt --check) and make deb
  gettext dpkg-dev
)

# make bench only (`setup.sh --bench`): the peers Reel is measured against, beside gst-play-1.0.
# VLC's plugins: base (demuxers, decoders, adummy) and video-output (xcb_x11, xcb_xv, vdummy).
if [ "${1:-}" = "--bench" ]; then
  PACKAGES+=(mpv vlc-bin vlc-plugin-base vlc-plugin-video-output)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$status" = "installed" ] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then SUDO=(); elif command -v sudo >/dev/null; then SUDO=(sudo); else
  echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
