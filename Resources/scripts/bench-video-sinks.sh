#!/usr/bin/env bash
# CPU cost of the candidate video outputs: playbin3 plays the 10 s 1080p clip (hd10s.mp4, from
# `make-media.sh --bench`) to the end with each sink, audio to fakesink, and /usr/bin/time reports
# user+system CPU seconds. Run under a display (xvfb-run for the numbers in docs/ARCHITECTURE.md).
#
#   bench-video-sinks.sh [CLIP]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
clip=${1:-"$here/../media/hd10s.mp4"}
[ -s "$clip" ] || bash "$here/make-media.sh" --bench
uri="file://$(cd "$(dirname "$clip")" && pwd)/$(basename "$clip")"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$(mktemp -d)}

sinks=(
  "fakesink sync=true"
  "xvimagesink"
  "ximagesink"
  "videoscale ! video/x-raw,width=960,height=540 ! ximagesink"
  "glimagesink"
  "gtksink"
)
printf '%-62s %8s %8s %8s %s\n' "video sink (playbin3, 1080p30, 10 s)" "user s" "sys s" "wall s" "result"
for sink in "${sinks[@]}"; do
  /usr/bin/time -o /tmp/bench-sink.time -f "%U %S %e" timeout 60 gst-launch-1.0 -q playbin3 uri="$uri" \
    video-sink="$sink" audio-sink="fakesink sync=true" >/dev/null 2>/tmp/bench-sink.err || true
  out=$(tail -1 /tmp/bench-sink.time)
  status=ok
  grep -qiE "error|could not|failed" /tmp/bench-sink.err && status="fails: $(grep -iE 'error|could not|failed' /tmp/bench-sink.err | sed -n 1p | cut -c1-60)"
  read -r u s e <<<"$out"
  printf '%-62s %8s %8s %8s %s\n' "$sink" "${u:-?}" "${s:-?}" "${e:-?}" "$status"
done
