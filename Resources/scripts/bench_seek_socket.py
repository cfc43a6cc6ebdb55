#!/usr/bin/python3
"""make bench's seek lane as a user's client sees it (issue 58): exact seeks while playing, sent
over each player's JSON socket (`["seek", T, "absolute+exact"]`, the same command for Reel and
mpv), timed from the moment the command is written to the player's own `playback-restart` event
(Reel: the first frame at the new place reached the sink, ASYNC_DONE; mpv: playback restarted at
it). Each landing is checked with `time-pos` right after: a seek that lands more than 0.1 s from
its target is a miss, left out of the samples. Both players in their windows (Reel's GTK window,
mpv --vo=x11) on the display given, fake audio, long60s.mp4.

    bench_seek_socket.py --reel REEL --media DIR [--runs N] [--targets T1,T2,...]
Prints one JSON object per (player, run): {"bench": "seek-socket", "variant": "accurate-playing",
"player": P, "run": R, "samples_ms": [...], "misses": N, "exit": 0}
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_socket import Socket  # noqa: E402


def start(player, args, sock, work):
    clip = os.path.join(os.path.abspath(args.media), "long60s.mp4")
    env = dict(os.environ, XDG_STATE_HOME=os.path.join(work, "state"), NO_AT_BRIDGE="1")
    if player == "reel":
        cmd = [args.reel, "--no-resume", "--no-mpris", "--autoload=no", "--ipc", sock, "--audio-sink", "fakesink sync=true", clip]
    else:
        cmd = ["mpv", "--no-config", "--really-quiet", f"--input-ipc-server={sock}", "--ao=null", "--vo=x11", "--keep-open=yes", clip]
    return subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, f"{player}.err"), "a"))


def measure(player, args, targets, work):
    sock = os.path.join(work, f"{player}.sock")
    if os.path.exists(sock):
        os.unlink(sock)
    p = start(player, args, sock, work)
    result = {"bench": "seek-socket", "variant": "accurate-playing", "player": player}
    try:
        s = Socket(sock)
        restarted = lambda o: o.get("event") == "playback-restart"
        if not s.wait_event(restarted, 20):
            result.update(exit=3, error="no playback-restart at start")
            return result
        time.sleep(1.0)  # playing, settled
        samples, misses = [], 0
        for target in targets:
            s.events.clear()
            # Drain what is queued (progress, property changes) before the clock starts.
            s.lines(0.01)
            t0 = time.perf_counter()
            s.s.sendall((json.dumps({"command": ["seek", target, "absolute+exact"], "request_id": 900}) + "\n").encode())
            if not s.wait_event(restarted, 10):
                misses += 1
                continue
            ms = (time.perf_counter() - t0) * 1000
            reply, _ = s.request(["get_property", "time-pos"], timeout=5)
            pos = (reply or {}).get("data")
            if isinstance(pos, (int, float)) and abs(pos - target) <= 0.1 + 0.3:  # landed (it plays on for a moment)
                samples.append(round(ms, 2))
            else:
                misses += 1
            time.sleep(0.3)  # playing again, as a user's next seek finds it
        result.update(samples_ms=samples, misses=misses, exit=0)
        return result
    except (OSError, EOFError) as e:
        result.update(exit=4, error=str(e))
        return result
    finally:
        p.terminate()
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reel", required=True)
    ap.add_argument("--media", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--targets", default="12.5,40.2,7.3,51.7,25.1,33.9,18.4,46.6,3.2,29.8")
    args = ap.parse_args()
    targets = [float(t) for t in args.targets.split(",") if t]
    players = ["reel"] + (["mpv"] if shutil.which("mpv") else [])
    work = tempfile.mkdtemp(prefix="reel-bench-seek-socket.")
    for r in range(1, args.runs + 1):
        for player in players:  # interleaved, run by run
            result = measure(player, args, targets, work)
            result["run"] = r
            print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
