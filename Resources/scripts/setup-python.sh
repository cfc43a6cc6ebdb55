#!/usr/bin/env bash
# Test-only Python packages from PyPI, into a folder of the build (never system-wide): the real
# mpv client library the socket is tested with (MpvClientLibraryTests) and yt-dlp, which the web
# page tests run as Reel's helper (WebPageVideoTests; Reel itself finds yt-dlp on PATH). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/../.."
target=.build/python
want="python-mpv-jsonipc==1.5.0 yt-dlp==2026.10.26"
if [ -f "$target/python_mpv_jsonipc.py" ] && [ -d "$target/yt_dlp" ] && [ "$(cat "$target/.installed" 2>/dev/null)" = "$want" ]; then exit 0; fi
echo "setup: installing $want into $target"
mkdir -p "$target"
pip=(python3 -m pip install --quiet --disable-pip-version-check --no-deps --upgrade --target "$target")
# Debian's own python3 marks itself externally managed; a --target folder of the build is not its.
# shellcheck disable=SC2086
PIP_ROOT_USER_ACTION=ignore "${pip[@]}" $want 2>/dev/null || PIP_ROOT_USER_ACTION=ignore "${pip[@]}" --break-system-packages $want
echo "$want" > "$target/.installed"
