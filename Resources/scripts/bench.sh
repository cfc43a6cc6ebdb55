#!/usr/bin/env bash
# make bench: Reel against the players people know, in the same run, on the same generated media,
# on one Xvfb display, with a fake audio sink for everyone. Prints a table, writes JSON.
#
#   bash Resources/scripts/bench.sh          (make bench: builds release, generates --bench media)
#
# Environment:
#   RUNS=5            runs of each short measurement (startup, seek processes); long ones use LONG_RUNS
#   LONG_RUNS=3       runs of the 10 s / 20 s measurements (CPU, gapless, HLS)
#   BUILD_DIR=.build CONFIG=release     where `reel` and `ReelBench` are (Makefile passes these)
#   REEL_WINDOW=1     1: reel plays in its own GTK window (`reel FILE --exit-at-end`), as users see it.
#                     0: reel draws with --video-sink (the same X sink as the peer) — the engine alone.
#   ONLY="startup cpu wayland gapless check seek hls dash live quality playlist queue preview subtitles gateway"   a subset, for quick iterations
#   QUEUE_SIZES=100,1000,10000,100000   the queue lane's playlist lengths (bench-queue.py)
#   QOE_RUNS=1        runs of each quality-of-experience trace (45 s each, per player)
#   OUT=bench-results  where JSON and the table go (git-ignored)
#
# Peers: gst-play-1.0 always (gstreamer1.0-plugins-base-apps); mpv when installed (detected);
# raw playbin3 through python3-gi for seek latency (Resources/scripts/bench_seek_peer.py).
# Budget: about 6 minutes on 2 cores with the defaults; under 10 by design.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"

# One display for every player: re-run under Xvfb unless there already is one.
if [ -z "${DISPLAY:-}" ] && [ -z "${REEL_BENCH_XVFB:-}" ]; then
  exec env REEL_BENCH_XVFB=1 xvfb-run -a -s "-screen 0 1920x1080x24 -nolisten tcp -noreset" bash "$0" "$@"
fi

# No accessibility bus and no session bus are running under this Xvfb: keep GTK from starting an
# AT-SPI bus for Reel's window (a desktop already has one), so the figures are the players'.
export NO_AT_BRIDGE=1
RUNS=${RUNS:-5}
LONG_RUNS=${LONG_RUNS:-3}
BUILD_DIR=${BUILD_DIR:-.build}
CONFIG=${CONFIG:-release}
REEL_WINDOW=${REEL_WINDOW:-1}
ONLY=${ONLY:-"startup cpu wayland gapless check seek hls dash live quality playlist queue preview subtitles gateway"}
QOE_RUNS=${QOE_RUNS:-1}
OUT=${OUT:-bench-results}
MEDIA=$root/Resources/media
REEL=$root/$BUILD_DIR/$CONFIG/reel
REELBENCH=$root/$BUILD_DIR/$CONFIG/ReelBench
PY=/usr/bin/python3            # the system python, which has python3-gi (pyenv's may not)
FAKE="fakesink sync=true"      # real-time pacing, no device: the same for every player

for f in "$REEL" "$REELBENCH"; do
  [ -x "$f" ] || { echo "bench: $f is missing: run 'make bench' (or swift build -c $CONFIG)" >&2; exit 1; }
done
for f in clip2s.mp4 hd10s.mp4 long60s.mp4 gapless-19.mp4; do
  [ -s "$MEDIA/$f" ] || { echo "bench: $MEDIA/$f is missing: run 'bash Resources/scripts/make-media.sh --bench'" >&2; exit 1; }
done

mkdir -p "$OUT"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
work=$(mktemp -d "${TMPDIR:-/tmp}/reel-bench.XXXXXX")
samples=$work/samples.jsonl
: > "$samples"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
want() { [[ " $ONLY " == *" $1 "* ]]; }
log() { printf 'bench: %s\n' "$*" >&2; }

have_mpv=0
command -v mpv >/dev/null 2>&1 && have_mpv=1
have_vlc=0
command -v cvlc >/dev/null 2>&1 && have_vlc=1
# VLC refuses to run as root: as root, cvlc runs as nobody, with a copy of this Xvfb's cookie it
# can read (a throwaway display's, removed with the work directory) and the media readable by all.
vlc_as=()
if [ "$have_vlc" = 1 ] && [ "$(id -u)" = 0 ]; then
  if command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
    vlc_home=$work/vlc-home
    mkdir -p "$vlc_home" && chown nobody "$vlc_home"
    vlc_xauth=$work/vlc-xauth
    if [ -n "${XAUTHORITY:-}" ] && [ -r "$XAUTHORITY" ]; then cp "$XAUTHORITY" "$vlc_xauth"; else : > "$vlc_xauth"; fi
    chmod 644 "$vlc_xauth"
    chmod 755 "$work"
    vlc_as=(setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME="$vlc_home" XAUTHORITY="$vlc_xauth")
  else
    have_vlc=0; log "cvlc: installed but cannot run as root and setpriv is missing: left out"
  fi
fi
have_xv=0
# Xvfb has the XVideo extension but no adaptor: xvimagesink needs an adaptor, not the extension.
xvinfo 2>/dev/null | grep 'Adaptor #' >/dev/null && have_xv=1  # not grep -q: SIGPIPE under pipefail

# run_one BENCH VARIANT PLAYER RUN -- command...
# Wall time from the shell's clock (ns), CPU (user+sys) and peak RSS from GNU time, which is the
# player's direct parent. A bound of 120 s per run keeps a hung player from stalling the bench.
run_one() {
  local bench=$1 variant=$2 player=$3 run=$4; shift 5
  local tf=$work/time.$$ status=0 start end
  start=$(date +%s%N)
  timeout -k 5 120 /usr/bin/time -f '%U %S %M' -o "$tf" "$@" >"$work/out.log" 2>&1 || status=$?
  end=$(date +%s%N)
  local user=0 sys=0 rss=0
  if [ -s "$tf" ]; then read -r user sys rss < <(tail -n 1 "$tf"); fi
  printf '{"bench":"%s","variant":"%s","player":"%s","run":%d,"wall_s":%s,"cpu_s":%s,"rss_kb":%s,"exit":%d}\n' \
    "$bench" "$variant" "$player" "$run" "$(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.4f",(b-a)/1e9}')" \
    "$(awk -v u="$user" -v s="$sys" 'BEGIN{printf "%.2f",u+s}')" "$rss" "$status" >> "$samples"
  if [ "$status" != 0 ]; then log "$player $bench/$variant run $run exited $status: $(tail -c 300 "$work/out.log" | tr '\n' ' ')"; fi
}

# Runs each player in turn, interleaved run by run, so drift on the machine hits all alike.
#   compare BENCH VARIANT RUNS REEL_VIDEO GST_VIDEO MPV_VO [GST_EXTRA] -- FILES...
# MPV_VO also names cvlc's output: null -> vdummy, x11 -> xcb_x11, xv -> xcb_xv (audio: adummy).
compare() {
  local bench=$1 variant=$2 runs=$3 reel_video=$4 gst_video=$5 mpv_vo=$6 gst_extra=${7:-}; shift 8
  local r
  for ((r = 1; r <= runs; r++)); do
    if [ "$reel_video" = window ]; then
      run_one "$bench" "$variant" reel "$r" -- "$REEL" --exit-at-end --audio-sink "$FAKE" "$@"
    else
      run_one "$bench" "$variant" reel "$r" -- "$REEL" --headless --audio-sink "$FAKE" --video-sink "$reel_video" "$@"
    fi
    # gst-play-1.0 uses playbin, whose gapless switch with audio+video hangs in 1.22 (measured:
    # 3 of 3 runs over the twenty clips); USE_PLAYBIN3=1 makes it playbin3, as Reel uses.
    local gst_env=()
    [ "$bench" = gapless ] && gst_env=(env USE_PLAYBIN3=1)
    # shellcheck disable=SC2086
    run_one "$bench" "$variant" gst-play-1.0 "$r" -- "${gst_env[@]}" gst-play-1.0 -q --no-interactive $gst_extra \
      --audiosink="$FAKE" --videosink="$gst_video" "$@"
    if [ "$have_mpv" = 1 ]; then
      local mpv_extra=()
      [ "$bench" = gapless ] && mpv_extra=(--gapless-audio=yes --prefetch-playlist=yes)
      run_one "$bench" "$variant" mpv "$r" -- mpv --no-config --really-quiet --ao=null --vo="$mpv_vo" \
        --keep-open=no "${mpv_extra[@]}" "$@"
    fi
    if [ "$have_vlc" = 1 ] && [ "$bench" != gapless ]; then
      local vout
      case $mpv_vo in null) vout=vdummy ;; x11) vout=xcb_x11 ;; xv) vout=xcb_xv ;; *) vout=$mpv_vo ;; esac
      run_one "$bench" "$variant" cvlc "$r" -- "${vlc_as[@]}" cvlc -q --play-and-exit --no-video-title-show \
        --no-osd --avcodec-hw=none --aout=adummy --vout="$vout" "$@"
    fi
  done
}

# The media's own length, as GStreamer reads it: a "1 s" clip lasts 1.023 s (its AAC track
# carries the encoder's priming samples), and overheads are what a player adds beyond that.
media_duration() {
  gst-discoverer-1.0 "$1" 2>/dev/null | awk '/^ *Duration:/ { split($2, t, ":"); printf "%.4f", t[1] * 3600 + t[2] * 60 + t[3]; exit }'
}
for f in "$MEDIA"/clip2s.mp4 "$MEDIA"/gapless-{00..19}.mp4; do
  d=$(media_duration "$f")
  [ -n "$d" ] && printf '{"bench":"media","file":"%s","duration_s":%s}\n' "$(basename "$f")" "$d" >> "$samples"
done

reel_x11=ximagesink
[ "$REEL_WINDOW" = 1 ] && reel_x11=window

if want startup; then
  log "startup overhead: clip2s.mp4 (2 s) to the end, $RUNS runs each"
  compare startup fakesink "$RUNS" "$FAKE" "$FAKE" null "" -- "$MEDIA/clip2s.mp4"
  compare startup x11 "$RUNS" "$reel_x11" ximagesink x11 "" -- "$MEDIA/clip2s.mp4"
  # Where Reel's window start-up goes: REEL_STARTUP_TRACE milestones, milliseconds from just
  # before exec (the shell's clock and Reel's are the same wall clock).
  log "startup breakdown: reel's window, $RUNS runs"
  for ((r = 1; r <= RUNS; r++)); do
    rm -f "$work/startup.trace"
    t0=$(date +%s.%N)
    REEL_STARTUP_TRACE="$work/startup.trace" timeout -k 5 60 "$REEL" --exit-at-end --audio-sink "$FAKE" "$MEDIA/clip2s.mp4" >/dev/null 2>&1 || true
    t1=$(date +%s.%N)
    marks=$(awk -v t0="$t0" -v t1="$t1" 'BEGIN{printf "{"} {printf "%s\"%s\":%.1f", (NR>1?",":""), $1, ($2-t0)*1000} END{printf "%s\"process-gone\":%.1f}", (NR>0?",":""), (t1-t0)*1000}' "$work/startup.trace" 2>/dev/null || echo '{}')
    printf '{"bench":"startup-trace","variant":"window","player":"reel","run":%d,"marks":%s}\n' "$r" "$marks" >> "$samples"
  done
fi

if want cpu; then
  log "CPU and peak RSS: hd10s.mp4 (10 s, 1080p) in real time in a window, $LONG_RUNS runs each"
  compare cpu ximagesink "$LONG_RUNS" "$reel_x11" ximagesink x11 "" -- "$MEDIA/hd10s.mp4"
  if [ "$have_xv" = 1 ]; then
    reel_xv=xvimagesink
    [ "$REEL_WINDOW" = 1 ] && reel_xv=window
    compare cpu xvimagesink "$LONG_RUNS" "$reel_xv" xvimagesink xv "" -- "$MEDIA/hd10s.mp4"
  else
    log "  (no XVideo on this X server: xvimagesink skipped)"
  fi
fi

if want wayland; then
  # The same 10 s 1080p clip in a window on a Wayland compositor (weston 10 headless; pixman, as
  # there is no GPU here): Reel's window (waylandsink on a subsurface of it), and as peers playbin3
  # with waylandsink and with gtkwaylandsink (gst-launch-1.0, each in a window of its own) and mpv
  # --vo=wlshm. The compositor's own CPU is not counted, only the player's.
  if command -v weston >/dev/null 2>&1; then
    log "CPU and peak RSS on Wayland: hd10s.mp4 in a window on weston, $LONG_RUNS runs each"
    wl_dir=$work/weston
    mkdir -p "$wl_dir" && chmod 700 "$wl_dir"
    XDG_RUNTIME_DIR=$wl_dir weston --backend=headless-backend.so --use-pixman --width=1920 --height=1080 \
      --socket=reel-bench --idle-time=0 >/dev/null 2>&1 &
    weston_pid=$!
    for _ in $(seq 50); do [ -S "$wl_dir/reel-bench" ] && break; sleep 0.1; done
    wl_env=(env XDG_RUNTIME_DIR="$wl_dir" WAYLAND_DISPLAY=reel-bench DISPLAY=)
    for ((r = 1; r <= LONG_RUNS; r++)); do
      run_one wayland window reel "$r" -- "${wl_env[@]}" "$REEL" --exit-at-end --no-mpris --audio-sink "$FAKE" "$MEDIA/hd10s.mp4"
      for sink in waylandsink gtkwaylandsink; do
        run_one wayland window "gst-launch $sink" "$r" -- "${wl_env[@]}" gst-launch-1.0 -q playbin3 \
          uri="file://$MEDIA/hd10s.mp4" video-sink="$sink" audio-sink="$FAKE"
      done
      if [ "$have_mpv" = 1 ]; then
        run_one wayland window "mpv wlshm" "$r" -- "${wl_env[@]}" mpv --no-config --really-quiet --ao=null --vo=wlshm --keep-open=no "$MEDIA/hd10s.mp4"
      fi
    done
    kill "$weston_pid" 2>/dev/null || true
  else
    log "  (weston is not installed: the Wayland lane is skipped; setup.sh installs it)"
  fi
fi

if want gapless; then
  log "transitions: twenty 1 s clips (gapless-00..19.mp4), $LONG_RUNS runs each"
  compare gapless fakesink "$LONG_RUNS" "$FAKE" "$FAKE" null "--gapless" -- "$MEDIA"/gapless-{00..19}.mp4
  # The same switches measured where the picture is shown: the gap between the last frame of one
  # clip and the first of the next at the video sink, less one frame (bench_transitions.py).
  log "transitions at the sink: the twenty clips, $LONG_RUNS runs each (reel, gst-play-1.0 with playbin3)"
  "$PY" "$here/bench_transitions.py" --reel "$REEL" --media "$MEDIA" --runs "$LONG_RUNS" >> "$samples" 2>"$work/transitions.err" \
    || log "transitions at the sink: $(tail -c 300 "$work/transitions.err")"
fi

if want check; then
  # reel check on a 20-item local playlist (the twenty 1 s clips): probe, first frame, three
  # captures and a decode to the end of every item, not in real time. The figure is wall time
  # over the 20 s of media; playing them (the gapless lane) takes a little over 1.
  printf '%s\n' "$MEDIA"/gapless-{00..19}.mp4 > "$work/twenty.m3u"
  log "reel check: a 20-item playlist (20 s of media), $LONG_RUNS runs"
  for ((r = 1; r <= LONG_RUNS; r++)); do
    rm -rf "$work/check-report"
    run_one check twenty reel "$r" -- "$REEL" check --quiet --report "$work/check-report" "$work/twenty.m3u"
  done
  # reel check --renditions all on a 3-rendition, 60 s HLS stream (720p, 360p, 180p): every
  # rendition probed, photographed, decoded to the end and its segments measured.
  log "reel check --renditions all: a 3-rendition 60 s HLS stream, $LONG_RUNS runs"
  for ((r = 1; r <= LONG_RUNS; r++)); do
    rm -rf "$work/check-hls"
    run_one check renditions reel "$r" -- "$REEL" check --quiet --renditions all --report "$work/check-hls" "$MEDIA/hls/bench3/master.m3u8"
  done
fi

if want seek; then
  # The same 15 targets for every player: spread over long60s.mp4 (1 s keyframe interval).
  targets=$(awk 'BEGIN{for(i=0;i<15;i++){t=1.2+((i*37.31)%56);printf "%s%.3f",(i?",":""),t}}')
  log "seek latency: long60s.mp4, 15 targets x $RUNS processes, keyframe and accurate, paused and playing"
  for state in paused playing; do
    for mode in keyframe accurate; do
      for ((r = 1; r <= RUNS; r++)); do
        for player in reel playbin3; do
          if [ $player = reel ]; then
            cmd=("$REELBENCH" seek "$MEDIA/long60s.mp4" --mode $mode --state $state --targets "$targets")
          else
            cmd=("$PY" "$here/bench_seek_peer.py" "$MEDIA/long60s.mp4" --mode $mode --state $state --targets "$targets")
          fi
          line=$(timeout -k 5 120 "${cmd[@]}" 2>"$work/seek.err" | tail -n 1) || true
          if [ -z "$line" ]; then line='{"status":"error","error":"no output"}'; log "$player seek $mode/$state: $(tail -c 300 "$work/seek.err")"; fi
          printf '{"bench":"seek","variant":"%s-%s","player":"%s","run":%d,"result":%s}\n' "$mode" "$state" "$player" "$r" "$line" >> "$samples"
        done
      done
    done
  done
  # As a client sees it: exact seeks while playing in each player's window, over its JSON socket
  # (the same command to Reel and mpv), to its own playback-restart (bench_seek_socket.py).
  log "seek latency over the socket: long60s.mp4 in a window, 10 exact seeks x $RUNS processes (reel, mpv)"
  "$PY" "$here/bench_seek_socket.py" --reel "$REEL" --media "$MEDIA" --runs "$RUNS" >> "$samples" 2>"$work/seek-socket.err" \
    || log "seek over the socket: $(tail -c 300 "$work/seek-socket.err")"
fi

if want hls; then
  # HLS VOD, 10 s in 2 s segments, served by a plain static server on 127.0.0.1.
  hls=$MEDIA/bench-hls
  if [ ! -s "$hls/index.m3u8" ]; then
    mkdir -p "$hls"
    gst-launch-1.0 -q videotestsrc pattern=smpte num-buffers=300 ! video/x-raw,format=I420,width=640,height=360,framerate=30/1 \
      ! x264enc speed-preset=ultrafast tune=zerolatency key-int-max=30 bframes=0 threads=1 ! h264parse ! queue ! mux.video \
      audiotestsrc num-buffers=300 samplesperbuffer=1470 ! audioconvert ! audioresample ! audio/x-raw,rate=44100,channels=2 \
      ! avenc_aac ! aacparse ! queue ! mux.audio \
      hlssink2 name=mux target-duration=2 max-files=0 playlist-length=0 \
        location="$hls/seg%05d.ts" playlist-location="$hls/index.m3u8" >/dev/null
  fi
  port=$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
  $PY -m http.server --bind 127.0.0.1 --directory "$hls" "$port" >/dev/null 2>&1 &
  server_pid=$!
  for _ in $(seq 50); do $PY -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/index.m3u8')" 2>/dev/null && break; sleep 0.1; done
  url="http://127.0.0.1:$port/index.m3u8"
  # Through Reel's loopback gateway (where every HLS item goes: playlists read and rewritten,
  # segments proxied) and direct (REEL_DIRECT_HLS=1: hlsdemux2 fetches the server itself, as
  # gst-play-1.0 does), against the same static server. Interleaved run by run.
  log "HLS VOD: 10 s over $url, direct and through the gateway, $LONG_RUNS runs each"
  for ((r = 1; r <= LONG_RUNS; r++)); do
    run_one hls direct reel "$r" -- env REEL_DIRECT_HLS=1 "$REEL" --headless --audio-sink "$FAKE" --video-sink "$FAKE" "$url"
    run_one hls gateway reel "$r" -- "$REEL" --headless --audio-sink "$FAKE" --video-sink "$FAKE" "$url"
    run_one hls direct gst-play-1.0 "$r" -- gst-play-1.0 -q --no-interactive --audiosink="$FAKE" --videosink="$FAKE" "$url"
    if [ "$have_mpv" = 1 ]; then
      run_one hls direct mpv "$r" -- mpv --no-config --really-quiet --ao=null --vo=null --keep-open=no "$url"
    fi
  done
  kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; server_pid=""
fi

if want dash; then
  # DASH VOD (issue 31): ffmpeg's DASH muxer (dash/ffmpeg: 8 s, SegmentTemplate + SegmentTimeline,
  # fMP4, 360p/720p and audio), served by a plain static server; Reel plays every MPD through its
  # gateway. Wall time over content time, beside gst-play-1.0 and mpv, interleaved run by run.
  dash=$MEDIA/dash/ffmpeg
  if [ -s "$dash/manifest.mpd" ]; then
    port=$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
    $PY -m http.server --bind 127.0.0.1 --directory "$dash" "$port" >/dev/null 2>&1 &
    dash_pid=$!
    for _ in $(seq 50); do $PY -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/manifest.mpd')" 2>/dev/null && break; sleep 0.1; done
    url="http://127.0.0.1:$port/manifest.mpd"
    log "DASH VOD: 8 s over $url, $LONG_RUNS runs each"
    for ((r = 1; r <= LONG_RUNS; r++)); do
      run_one dash vod reel "$r" -- "$REEL" --headless --audio-sink "$FAKE" --video-sink "$FAKE" "$url"
      run_one dash vod gst-play-1.0 "$r" -- gst-play-1.0 -q --no-interactive --audiosink="$FAKE" --videosink="$FAKE" "$url"
      if [ "$have_mpv" = 1 ]; then
        run_one dash vod mpv "$r" -- mpv --no-config --really-quiet --ao=null --vo=null --keep-open=no "$url"
      fi
    done
    kill "$dash_pid" 2>/dev/null; wait "$dash_pid" 2>/dev/null || true
  else
    log "DASH VOD: no dash/ffmpeg (ffmpeg missing when the media were made)"
  fi
  # Live DASH: ffmpeg's DASH muxer in real time; time to the first frame and its distance from
  # the edge, Reel beside gst-play-1.0 and mpv.
  if command -v ffmpeg >/dev/null; then
    log "live DASH: time to first frame and distance from the edge, $RUNS runs"
    "$PY" "$here/bench_live_dash.py" --reel "$REEL" --runs "$RUNS" >> "$samples" 2>"$work/livedash.err" \
      || log "live DASH: $(tail -c 300 "$work/livedash.err")"
  fi
fi

if want live; then
  # A live HLS event (live-event-server.py: 2 s segments, a 12 s window sliding in real time,
  # PROGRAM-DATE-TIME on every segment): time from exec to the first frame at the sink, and the
  # distance from the live edge of that frame (from which segment each player fetched first).
  log "live HLS: time to first frame and distance from the edge, $RUNS runs"
  "$PY" "$here/bench_live.py" --reel "$REEL" --media "$MEDIA/hls/live" --runs "$RUNS" >> "$samples" 2>"$work/live.err" \
    || log "live: $(tail -c 300 "$work/live.err")"
fi

if want quality; then
  # Adaptive quality (hls/abr: 360p/720p/1080p) through throttle-server.py on three bandwidth
  # traces (steady 8 Mbit/s; 8 then 1 from 16 s; 8 and 1 alternating every 10 s): stalls, mean
  # played bitrate against what the trace allows, switches, time to first frame. "reel" starts
  # from nothing remembered (the first listed rendition, as the peers do); "reel-remembered" is a
  # returning user (the network's throughput before the trace kept from an earlier run).
  # The same on hls/ffmpeg-abr (ffmpeg's HLS muxer and its own master: a packager's stream, issue
  # 27), with mpv (its --hls-bitrate default) beside gst-play-1.0 when it is installed.
  streams="abr"
  [ -s "$MEDIA/hls/ffmpeg-abr/master.m3u8" ] && streams="$streams ffmpeg-abr"
  log "quality of experience: $streams, traces steady/step-down/oscillating, 45 s, $QOE_RUNS run(s)"
  for ((r = 1; r <= QOE_RUNS; r++)); do
    for stream in $streams; do
      for trace in steady step-down oscillating; do
        players="reel reel-remembered gst-play-1.0"
        [ "$have_mpv" = 1 ] && players="$players mpv"
        variant=$trace; [ "$stream" = abr ] || variant="$stream/$trace"
        for player in $players; do
          line=$(timeout -k 5 120 "$PY" "$here/bench_quality.py" --player "$player" --trace "$trace" --media "$MEDIA/hls/$stream" \
            --reel "$REEL" --seconds 45 2>"$work/qoe.err" | tail -n 1) || true
          if [ -z "$line" ]; then line='{"status":"error","error":"no output"}'; log "$player quality $variant: $(tail -c 300 "$work/qoe.err")"; fi
          printf '{"bench":"quality","variant":"%s","player":"%s","run":%d,"result":%s}\n' "$variant" "$player" "$r" "$line" >> "$samples"
        done
      done
    done
  done
fi

if want playlist; then
  log "playlist parse/rewrite throughput: generated M3U8, 100k segments"
  line=$(timeout -k 5 300 "$REELBENCH" playlist --segments 100000 --runs 3 2>"$work/pl.err" | tail -n 1) || true
  [ -n "$line" ] || line='{"status":"error","error":"no output"}'
  printf '{"bench":"playlist","variant":"m3u8-100k","player":"reel","result":%s}\n' "$line" >> "$samples"
fi

if want queue; then
  # A queue of N entries plays as lightly as one of ten (issue 51): Reel and mpv on the same
  # lists; its own table (bench-queue.py), kept beside the report as queue-<stamp>.jsonl.
  log "queue: playlists of ${QUEUE_SIZES:-100,1000,10000,100000} entries, Reel and mpv"
  $PY "$here/bench-queue.py" "$REEL" "$MEDIA" "$OUT/queue-$stamp.jsonl" "${QUEUE_SIZES:-100,1000,10000,100000}" >&2 || log "queue lane failed"
fi

if want preview; then
  # Hovering the seek bar never makes the window stutter (issue 48): 10 s of 1080p without a
  # hover and 10 s with the pointer sweeping the bar; its own table (bench-preview.py).
  log "preview: a hover sweep over the seek bar while playing 1080p, beside none"
  $PY "$here/bench-preview.py" "$REEL" "$MEDIA" "$OUT/preview-$stamp.jsonl" >&2 || log "preview lane failed"
fi

if want subtitles; then
  # Subtitle parsing (what a film's subtitle file costs at each item's start, off the main
  # thread): 13 MB film-shaped SRT/WebVTT/ASS, and the review's hostile 20 KB shapes (issue 28,
  # item 8), whose MB/s must be of the same order as a film's (a quadratic shape is 1000x slower).
  log "subtitle parse throughput: 13 MB films and 20 KB hostile shapes"
  line=$(timeout -k 5 300 "$REELBENCH" subtitles --megabytes 13 --hostile 20 --runs 3 2>"$work/subs.err" | tail -n 1) || true
  [ -n "$line" ] || line='{"status":"error","error":"no output"}'
  printf '{"bench":"subtitles","variant":"parse","player":"reel","result":%s}\n' "$line" >> "$samples"
fi

if want gateway; then
  # The gateway alone: sequential 1 KiB requests (latency) and 64 MiB bodies (throughput) over
  # loopback, direct against through the gateway, from `reel bench-gateway` (one process each run).
  log "gateway latency and throughput: reel bench-gateway, $LONG_RUNS runs"
  for ((r = 1; r <= LONG_RUNS; r++)); do
    line=$(timeout -k 5 300 "$REEL" bench-gateway --json 2>"$work/gw.err" | tail -n 1) || true
    if [ -z "$line" ]; then line='{"status":"error","error":"no output"}'; log "bench-gateway run $r: $(tail -c 300 "$work/gw.err")"; fi
    printf '{"bench":"gateway","variant":"loopback","player":"reel","run":%d,"result":%s}\n' "$r" "$line" >> "$samples"
  done
  # The gateway's URL registry: rewriting media playlists of up to 200,000 segments (every URI
  # registered), and 20,000 live refreshes with signed URLs (the table must stay bounded).
  log "gateway registry: reel bench-gateway --registry, $LONG_RUNS runs"
  for ((r = 1; r <= LONG_RUNS; r++)); do
    line=$(timeout -k 5 600 "$REEL" bench-gateway --registry 1000,8000,50000,200000 --json 2>"$work/gwr.err" | tail -n 1) || true
    if [ -z "$line" ]; then line='{"status":"error","error":"no output"}'; log "bench-gateway --registry run $r: $(tail -c 300 "$work/gwr.err")"; fi
    printf '{"bench":"registry","variant":"rewrite","player":"reel","run":%d,"result":%s}\n' "$r" "$line" >> "$samples"
  done
fi

# Machine and versions, then the report.
machine=$($PY - <<EOF
import json, os, platform, subprocess
def out(cmd):
    try: return subprocess.run(cmd, capture_output=True, text=True, timeout=20).stdout.strip()
    except Exception: return None
cpu = next((l.split(":",1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), None)
mem = next((int(l.split()[1]) for l in open("/proc/meminfo") if l.startswith("MemTotal")), 0)
print(json.dumps({
  "date": "$stamp", "host": platform.node(), "kernel": platform.release(), "cpu": cpu,
  "cores": os.cpu_count(), "mem_gb": round(mem / 1048576, 1),
  "gstreamer": out(["gst-launch-1.0", "--gst-version"]),
  "swift": (out(["swift", "--version"]) or "").splitlines()[0:1],
  "reel_commit": out(["git", "-C", "$root", "rev-parse", "--short", "HEAD"]),
  "reel_config": "$CONFIG", "reel_window": "$REEL_WINDOW" == "1",
  "mpv": out(["mpv", "--version"]).splitlines()[0] if $have_mpv else None,
  "cvlc": ("vlc " + (out(["dpkg-query", "-W", "-f=\${Version}", "vlc-bin"]) or "?")) if $have_vlc else None,
  "xvideo": $have_xv == 1, "runs": $RUNS, "long_runs": $LONG_RUNS,
}))
EOF
)
cp "$samples" "$OUT/samples-$stamp.jsonl"   # the raw lines, kept for a report that fails
$PY "$here/bench_report.py" --samples "$samples" --machine "$machine" \
  --json "$OUT/bench-$stamp.json" --table "$OUT/bench-$stamp.txt"
cp "$OUT/bench-$stamp.json" "$OUT/latest.json"
cp "$OUT/bench-$stamp.txt" "$OUT/latest.txt"
log "written $OUT/bench-$stamp.json and $OUT/latest.{json,txt}"
