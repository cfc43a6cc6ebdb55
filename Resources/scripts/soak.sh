#!/usr/bin/env bash
# make soak [MINUTES=10]: plays a looping playlist for N minutes in real time and reports RSS
# growth (sampled from /proc every few seconds), open file descriptors, threads and errors.
#
#   bash Resources/scripts/soak.sh [MINUTES]
#
# The cycle mixes every kind of item Reel meets in a session: a 2 s and a 10 s clip, an audio
# file, twenty 1 s clips back to back, and two deliberately bad files (a zero-byte file and text
# named .mp4) whose errors are expected and counted apart. Any other error is a failure.
# Beside it, for the same minutes, a second reel plays an endless live HLS stream whose segment
# URLs are signed anew on every playlist refresh (live-signed-server.py), through the
# protected-stream gateway with a header: its RSS must stay flat too (the gateway forgets URLs
# no playlist lists any more), every request must carry the header, and it must not stop.
# Writes bench-results/soak-<date>.json and .csv (samples; live-*.csv for the live lane). Exit status 1 when an unexpected
# error occurred, the player died, or RSS grew by more than SOAK_MAX_GROWTH_MB (default 50)
# between the first and the last minute.
#
# Environment: BUILD_DIR (.build), CONFIG (debug), OUT (bench-results), SAMPLE_SECONDS (5),
#   SOAK_LOOP=auto|flag|args  how to loop: `flag` is `--loop=all`; `args` repeats the cycle on the
#   command line; `auto` (default) uses `--loop=all` when `reel play --help` lists it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"

MINUTES=${1:-${MINUTES:-10}}
BUILD_DIR=${BUILD_DIR:-.build}
CONFIG=${CONFIG:-debug}
OUT=${OUT:-bench-results}
SAMPLE_SECONDS=${SAMPLE_SECONDS:-5}
SOAK_LOOP=${SOAK_LOOP:-auto}
MAX_GROWTH=${SOAK_MAX_GROWTH_MB:-50}
REEL=$root/$BUILD_DIR/$CONFIG/reel
MEDIA=$root/Resources/media
PY=/usr/bin/python3
FAKE="fakesink sync=true"

[ -x "$REEL" ] || { echo "soak: $REEL is missing: run 'make build'" >&2; exit 1; }
bash "$here/make-media.sh" >/dev/null

cycle=("$MEDIA/clip2s.mp4" "$MEDIA/empty.mp4" "$MEDIA/color10s.mp4" "$MEDIA/tone3s.m4a" "$MEDIA/notmedia.mp4")
for i in $(seq -w 0 19); do cycle+=("$MEDIA/gapless-$i.mp4"); done
cycle_seconds=35   # 2 + 10 + 3 + 20 (the bad items fail at once)

if [ "$SOAK_LOOP" = auto ]; then
  # (not `| grep -q`: with pipefail, grep quitting early fails the pipeline through SIGPIPE)
  if [ "$("$REEL" play --help 2>&1 | grep -c -- '--loop')" -gt 0 ]; then SOAK_LOOP=flag; else SOAK_LOOP=args; fi
fi
if [ "$SOAK_LOOP" = flag ]; then
  inputs=(--loop=all "${cycle[@]}")
else
  reps=$(( MINUTES * 60 / cycle_seconds + 2 ))
  inputs=()
  for ((r = 0; r < reps; r++)); do inputs+=("${cycle[@]}"); done
fi

mkdir -p "$OUT"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
events=$(mktemp "${TMPDIR:-/tmp}/reel-soak-events.XXXXXX")
csv=$OUT/soak-$stamp.csv
echo "elapsed_s,rss_kb,fds,threads" > "$csv"
trap 'rm -f "$events"' EXIT

echo "soak: ${MINUTES} min, looping by $SOAK_LOOP, sampling every ${SAMPLE_SECONDS}s -> $csv" >&2
"$REEL" --headless --events --audio-sink "$FAKE" --video-sink "$FAKE" "${inputs[@]}" > "$events" 2>/dev/null &
pid=$!

# The live lane: signed URLs per refresh, a header on every request, through the gateway.
live_dir=$(mktemp -d "${TMPDIR:-/tmp}/reel-soak-live.XXXXXX")
live_csv=$OUT/soak-live-$stamp.csv
echo "elapsed_s,rss_kb,fds,threads" > "$live_csv"
$PY "$here/live-signed-server.py" "$MEDIA/hls/live" "$live_dir/port" "$live_dir/state.json" X-Soak-Key soak-key-3c3c &
server_pid=$!
for _ in $(seq 50); do [ -s "$live_dir/port" ] && break; sleep 0.1; done
live_url="http://127.0.0.1:$(cat "$live_dir/port")/live/index.m3u8"
"$REEL" --headless --events --audio-sink "$FAKE" --video-sink "$FAKE" --header "X-Soak-Key: soak-key-3c3c" "$live_url" \
  > "$live_dir/events" 2>"$live_dir/stderr" &
live_pid=$!
trap 'rm -f "$events"; kill "$server_pid" "$live_pid" 2>/dev/null || true; rm -rf "$live_dir"' EXIT
start=$(date +%s)
deadline=$(( start + MINUTES * 60 ))
died=0
while :; do
  now=$(date +%s)
  if ! kill -0 "$pid" 2>/dev/null; then died=1; break; fi
  rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
  threads=$(awk '/^Threads:/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
  fds=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l)
  echo "$(( now - start )),${rss:-0},$fds,${threads:-0}" >> "$csv"
  if kill -0 "$live_pid" 2>/dev/null; then
    echo "$(( now - start )),$(awk '/^VmRSS:/ {print $2}' "/proc/$live_pid/status" 2>/dev/null || echo 0),$(ls "/proc/$live_pid/fd" 2>/dev/null | wc -l),$(awk '/^Threads:/ {print $2}' "/proc/$live_pid/status" 2>/dev/null || echo 0)" >> "$live_csv"
  fi
  [ "$now" -ge "$deadline" ] && break
  sleep "$SAMPLE_SECONDS"
done
exit_status=""
if [ "$died" = 1 ]; then
  wait "$pid" && exit_status=0 || exit_status=$?
else
  kill -TERM "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
fi

live_died=0
kill -0 "$live_pid" 2>/dev/null || live_died=1
kill -TERM "$live_pid" 2>/dev/null || true
wait "$live_pid" 2>/dev/null || true
kill "$server_pid" 2>/dev/null || true

$PY - "$csv" "$events" "$OUT/soak-$stamp.json" "$MINUTES" "$SOAK_LOOP" "$MAX_GROWTH" "$died" "${exit_status:-}" "$stamp" \
  "$live_csv" "$live_dir/events" "$live_dir/state.json" "$live_died" <<'EOF'
import csv, json, os, platform, sys
csv_path, events_path, json_path, minutes, loop, max_growth, died, exit_status, stamp, live_csv, live_events, live_state, live_died = sys.argv[1:]
rows = [{k: int(v) for k, v in r.items()} for r in csv.DictReader(open(csv_path))]
events = []
for line in open(events_path, errors="replace"):
    try: events.append(json.loads(line))
    except ValueError: pass
expected_bad = ("empty.mp4", "notmedia.mp4")
uris = {}
errors, expected = [], 0
warnings = []  # every soak item plays to its full length: an early-end warning is a false one
ends = 0
for e in events:
    if e.get("event") == "item": uris[e.get("item")] = e.get("uri", "")
    if e.get("event") == "end": ends += 1
    if e.get("event") == "error":
        uri = uris.get(e.get("item"), "")
        if uri.endswith(expected_bad): expected += 1
        else: errors.append({"item": e.get("item"), "uri": uri, "error": e.get("error")})
    if e.get("event") == "warning":
        warnings.append({"item": e.get("item"), "uri": uris.get(e.get("item"), ""), "warning": e.get("warning")})
def window(lo, hi):
    vals = [r["rss_kb"] for r in rows if lo <= r["elapsed_s"] < hi and r["rss_kb"] > 0]
    return sum(vals) / len(vals) / 1024 if vals else None
total = rows[-1]["elapsed_s"] if rows else 0
# The first minute is warm-up (caches, decoders, the first of each kind of item): growth is
# measured from the second minute on when the run is long enough.
first = window(60, 120) if total >= 180 else window(0, 60) if total >= 120 else window(0, max(1, total / 2))
last = window(total - 60, total + 1) if total >= 120 else window(total / 2, total + 1)
growth = (last - first) if first is not None and last is not None else None
# Least-squares slope after the first minute, in MB per hour.
pts = [(r["elapsed_s"], r["rss_kb"] / 1024) for r in rows if r["elapsed_s"] >= min(60, total / 2) and r["rss_kb"] > 0]
slope = None
if len(pts) >= 3:
    n = len(pts); mx = sum(p[0] for p in pts) / n; my = sum(p[1] for p in pts) / n
    den = sum((p[0] - mx) ** 2 for p in pts)
    slope = sum((p[0] - mx) * (p[1] - my) for p in pts) / den * 3600 if den else None
# The live lane: flat RSS (same windows), no error event, still playing, the header on every request.
live_rows = [{k: int(v) for k, v in r.items()} for r in csv.DictReader(open(live_csv))]
def live_window(lo, hi):
    vals = [r["rss_kb"] for r in live_rows if lo <= r["elapsed_s"] < hi and r["rss_kb"] > 0]
    return sum(vals) / len(vals) / 1024 if vals else None
live_first = live_window(60, 120) if total >= 180 else live_window(0, max(1, total / 2))
live_last = live_window(total - 60, total + 1) if total >= 120 else live_window(total / 2, total + 1)
live_growth = (live_last - live_first) if live_first is not None and live_last is not None else None
live_errors = []
for line in open(live_events, errors="replace"):
    try: e = json.loads(line)
    except ValueError: continue
    if e.get("event") == "error": live_errors.append(e.get("error"))
server = json.load(open(live_state)) if os.path.exists(live_state) else {}
live_ok = (live_died == "0" and not live_errors and server.get("missing_header", 1) == 0 and server.get("segments", 0) > 0
           and (live_growth is None or live_growth <= float(max_growth)))
ok = not errors and not warnings and died == "0" and (growth is None or growth <= float(max_growth)) and live_ok
report = {
    "date": stamp, "host": platform.node(), "minutes": float(minutes), "loop": loop, "seconds": total,
    "items_ended": ends, "expected_errors": expected, "unexpected_errors": errors[:50],
    "unexpected_error_count": len(errors), "warnings": warnings[:50], "warning_count": len(warnings), "player_exited_early": died == "1", "exit_status": exit_status or None,
    "rss_mb_baseline_minute": first, "baseline_minute": 2 if total >= 180 else 1, "rss_mb_last_minute": last, "rss_growth_mb": growth, "rss_slope_mb_per_hour": slope,
    "rss_mb_peak": max((r["rss_kb"] for r in rows), default=0) / 1024,
    "fds_first": rows[0]["fds"] if rows else None, "fds_last": rows[-1]["fds"] if rows else None,
    "threads_first": rows[0]["threads"] if rows else None, "threads_last": rows[-1]["threads"] if rows else None,
    "live": {"rss_mb_baseline_minute": live_first, "rss_mb_last_minute": live_last, "rss_growth_mb": live_growth,
             "rss_mb_peak": max((r["rss_kb"] for r in live_rows), default=0) / 1024, "errors": live_errors[:20],
             "stopped_early": live_died == "1", "server": server, "ok": live_ok},
    "ok": ok,
}
json.dump(report, open(json_path, "w"), indent=1)
f = lambda v: "—" if v is None else f"{v:.1f}"
print(f"soak {stamp}: {total} s, {ends} items played, {expected} expected errors (bad items), {len(errors)} unexpected, {len(warnings)} warnings")
print(f"  RSS {'second' if total >= 180 else 'first'} minute {f(first)} MB, last minute {f(last)} MB, growth {f(growth)} MB, slope {f(slope)} MB/h, peak {f(report['rss_mb_peak'])} MB")
print(f"  fds {report['fds_first']} -> {report['fds_last']}, threads {report['threads_first']} -> {report['threads_last']}")
print(f"  live (signed URLs per refresh, through the gateway): RSS {f(live_first)} -> {f(live_last)} MB, growth {f(live_growth)} MB; "
      f"{server.get('playlists', 0)} refreshes, {server.get('segments', 0)} segments, {server.get('missing_header', '?')} without the header, "
      f"{len(live_errors)} errors{', stopped early' if live_died == '1' else ''}")
if died == "1": print(f"  the player exited before the end (status {exit_status})")
for e in errors[:5]: print(f"  unexpected error on item {e['item']} {e['uri']}: {e['error']}")
for w in warnings[:5]: print(f"  warning on item {w['item']} {w['uri']}: {w['warning']}")
print(f"  {'OK' if ok else 'FAILED'} -> {json_path}")
sys.exit(0 if ok else 1)
EOF
