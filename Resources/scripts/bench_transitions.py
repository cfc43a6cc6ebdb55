#!/usr/bin/python3
"""make bench's transitions at the sink (issue 58): how long the picture stands still when a queue
moves to its next item, measured where it is shown.

Each player plays the twenty 1 s clips (gapless-00..19.mp4) once per run with a named fake video
sink that keeps to the clock (`fakesink name=gapvideo sync=true`), and GStreamer's own log of that
sink (GST_DEBUG=basesink:6): a frame is shown when the sink logs "rendering object" (after its wait
for the clock). A transition is where the frames' stream time starts again (the sink's "got times
start" goes back); its gap is the time from the last frame of one item to the first of the next,
and what the player adds is that gap less the last frame's own duration (one frame of a perfectly
gapless switch). Reel runs as users run it (`reel --headless`, its queue and sequencer); the peer
is gst-play-1.0 with playbin3 (USE_PLAYBIN3=1; its default playbin hangs on these clips in 1.22).

    bench_transitions.py --reel REEL --media DIR [--runs N]
Prints one JSON object per (player, run) on stdout:
    {"bench": "transition-sink", "variant": "fakesink", "player": P, "run": R,
     "extra_ms": [19 numbers], "exit": 0}
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

SINK = "gapvideo"
TIME = re.compile(r"^(\d+):(\d\d):(\d\d\.\d+)\s")
TIMES = re.compile(r"got times start: (\d+):(\d\d):(\d\d\.\d+), stop: (\d+):(\d\d):(\d\d\.\d+)")


def seconds(h, m, s):
    return int(h) * 3600 + int(m) * 60 + float(s)


def shown_frames(log_path):
    """(log time shown, stream start, stream stop) of every frame the video sink rendered."""
    frames, start, stop = [], None, None
    with open(log_path, errors="replace") as f:
        for line in f:
            if f"<{SINK}>" not in line:
                continue
            t = TIMES.search(line)
            if t:
                start, stop = seconds(*t.groups()[:3]), seconds(*t.groups()[3:])
                continue
            if "rendering object" in line and start is not None:
                at = TIME.match(line)
                if at:
                    frames.append((seconds(*at.groups()), start, stop))
    return frames


def transitions(frames):
    """What the player added at each item change: the gap between the frames shown less the
    previous frame's duration, in ms."""
    extra = []
    for (t0, s0, e0), (t1, s1, _) in zip(frames, frames[1:]):
        if s1 < s0:  # the stream time starts again: the next item
            extra.append((t1 - t0 - (e0 - s0)) * 1000)
    return extra


def run(player, args, clips, work):
    log = os.path.join(work, f"{player}.log")
    if os.path.exists(log):
        os.unlink(log)
    env = dict(os.environ, GST_DEBUG=f"basesink:6", GST_DEBUG_NO_COLOR="1", GST_DEBUG_FILE=log,
               XDG_STATE_HOME=os.path.join(work, "state"), NO_AT_BRIDGE="1")
    sink = f"fakesink name={SINK} sync=true"
    if player == "reel":
        cmd = [args.reel, "--headless", "--no-mpris", "--no-resume", "--autoload=no", "--audio-sink", "fakesink sync=true",
               "--video-sink", sink] + clips
    else:
        env["USE_PLAYBIN3"] = "1"
        cmd = ["gst-play-1.0", "-q", "--no-interactive", "--audiosink=fakesink sync=true", f"--videosink={sink}"] + clips
    try:
        status = subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                timeout=120).returncode
    except subprocess.TimeoutExpired:
        status = 124
    extra = transitions(shown_frames(log)) if status == 0 else []
    if status == 0 and len(extra) != len(clips) - 1:
        print(f"transitions: {player} showed {len(extra)} item changes of {len(clips) - 1}", file=sys.stderr)
        status = 3
    return {"bench": "transition-sink", "variant": "fakesink", "player": player, "extra_ms": [round(x, 3) for x in extra], "exit": status}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reel", required=True)
    ap.add_argument("--media", required=True)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    clips = [os.path.join(os.path.abspath(args.media), f"gapless-{i:02d}.mp4") for i in range(20)]
    work = tempfile.mkdtemp(prefix="reel-bench-transitions.")
    for r in range(1, args.runs + 1):
        for player in ("reel", "gst-play-1.0"):  # interleaved, run by run
            result = run(player, args, clips, work)
            result["run"] = r
            print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
