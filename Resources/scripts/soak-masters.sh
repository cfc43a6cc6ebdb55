#!/usr/bin/env bash
# The masters lane of `make soak` (issue 27): plays every HLS master fixture as real packagers
# write them (make-media.sh's hls/ffmpeg: ffmpeg's own masters, masters with AVERAGE-BANDWIDTH in
# either order, a 404 variant, an alternate audio rendition; TS, fMP4, byte ranges) from a plain HTTP server on 127.0.0.1,
# each REPEAT times (default 20) in each state a user's Reel can be in: fresh, a fast link
# remembered (what any earlier stream on loopback leaves), a slow link remembered; the warm ones
# with a resume entry too. Every run must end by itself (exit 0); a run that dies of a signal
# is a crash. Prints one line per master and state and a total; exit 1 on any crash or failure.
#
#   bash Resources/scripts/soak-masters.sh [REPEAT]
#
# Environment: BUILD_DIR (.build), CONFIG (debug).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
REPEAT=${1:-${REPEAT:-20}}
REEL=$root/${BUILD_DIR:-.build}/${CONFIG:-debug}/reel
MEDIA=$root/Resources/media/hls/ffmpeg
[ -x "$REEL" ] || { echo "soak-masters: $REEL is missing: run 'make build'" >&2; exit 1; }
bash "$here/make-media.sh" >/dev/null
[ -d "$MEDIA" ] || { echo "soak-masters: no $MEDIA (ffmpeg is missing: Resources/scripts/setup.sh installs it)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/reel-soak-masters.XXXXXX")
port_file=$work/port
# A static server that honours Range (byte-range segments), as nginx and every CDN do; Python's
# own SimpleHTTPRequestHandler answers every Range with the whole file.
/usr/bin/python3 - "$MEDIA" "$port_file" <<'PY' &
import functools, http.server, os, re, sys
root, port_file = sys.argv[1], sys.argv[2]
class Ranged(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_GET(self):
        path = self.translate_path(self.path)
        m = re.match(r"bytes=(\d+)-(\d*)$", self.headers.get("Range", ""))
        if not m or not os.path.isfile(path):
            return super().do_GET()
        size = os.path.getsize(path)
        start, end = int(m.group(1)), int(m.group(2)) if m.group(2) else size - 1
        if start >= size:
            self.send_response(416); self.send_header("Content-Range", f"bytes */{size}"); self.end_headers(); return
        end = min(end, size - 1)
        with open(path, "rb") as f:
            f.seek(start); body = f.read(end - start + 1)
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Ranged, directory=root))
open(port_file, "w").write(str(server.server_address[1]))
server.serve_forever()
PY
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do [ -s "$port_file" ] && break; sleep 0.1; done
base="http://127.0.0.1:$(cat "$port_file")"

masters=(ts/master.m3u8 ts/avg.m3u8 ts/avg-desc.m3u8 ts/missing.m3u8 fmp4/master.m3u8 fmp4/avg.m3u8 range/avg.m3u8 audio/master.m3u8)
total=0; crashes=0; failures=0
for master in "${masters[@]}"; do
  for state in fresh fast slow; do
    ok=0; bad=0; died=0
    for ((i = 0; i < REPEAT; i++)); do
      home=$work/state-$state-$i; mkdir -p "$home/reel"; chmod 700 "$home" "$home/reel"
      url="$base/$master"
      case $state in
        fast) echo 1000000000 > "$home/reel/throughput" ;;
        slow) echo 500000 > "$home/reel/throughput" ;;
      esac
      if [ "$state" != fresh ]; then
        printf '{"entries":[{"key":"%s","position":6,"duration":20,"saved":%s}],"version":1}' "$url" "$(date +%s)" > "$home/reel/resume.json"
      fi
      XDG_STATE_HOME=$home timeout -k 5 60 "$REEL" --headless --audio-sink "fakesink sync=false" --video-sink "fakesink sync=false" "$url" \
        >/dev/null 2>"$work/stderr"
      status=$?
      rm -rf "$home"
      total=$((total + 1))
      if [ $status -eq 0 ]; then ok=$((ok + 1))
      elif [ $status -ge 124 ]; then died=$((died + 1)); echo "soak-masters: $master $state run $i ended with status $status: $(tail -c 400 "$work/stderr")" >&2
      else bad=$((bad + 1)); echo "soak-masters: $master $state run $i failed (status $status): $(tail -c 300 "$work/stderr")" >&2
      fi
    done
    crashes=$((crashes + died)); failures=$((failures + bad))
    printf 'soak-masters: %-18s %-5s %3d played, %d failed, %d crashed or hung\n' "$master" "$state" "$ok" "$bad" "$died"
  done
done
echo "soak-masters: $total runs, $failures failed, $crashes crashed or hung"
[ $crashes -eq 0 ] && [ $failures -eq 0 ]
