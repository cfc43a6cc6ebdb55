#!/usr/bin/env python3
"""Quality of experience on adaptive HLS: one player, one bandwidth trace, one run (make bench's
"quality" lane). The stream is hls/abr (360p/720p/1080p at about 0.6/2/5 Mbit/s, 2 s segments) or
hls/ffmpeg-abr (the same ladder made by ffmpeg's HLS muxer, its own master), served by
throttle-server.py on a schedule; the player plays with fake sinks for SECONDS.

  bench_quality.py --player reel|reel-remembered|gst-play-1.0|mpv --trace steady|step-down|oscillating
                   --media DIR [--master master.m3u8] --reel PATH [--seconds 40]

Prints one JSON line:
  stalls, stall_s      waits after playback first started (Reel: time-control events; gst-play:
                       "Buffering" below 100 % after it began; mpv: its "Buffering" status lines)
  ttff_s               from the start of the process to the first frame playing
  mean_kbps            mean BANDWIDTH of the segments played (the last rendition fetched for each
                       segment index, over the media time played)
  allowed_kbps         the bits the link carried during the run over the media seconds played, at
                       most the top rendition (the ceiling a player knowing the trace would reach)
  switches             rendition changes along the played segments
"""
import argparse
import json
import os
import re
import select
import subprocess
import sys
import tempfile
import time

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

TRACES = {
    "steady": [(0, 8_000_000)],
    "step-down": [(0, 8_000_000), (16, 1_000_000)],
    "oscillating": [(0, 8_000_000), (10, 1_000_000), (20, 8_000_000), (30, 1_000_000), (40, 8_000_000)],
}


def rate_at(trace, t):
    current = trace[0][1]
    for at, bps in trace:
        if t >= at:
            current = bps
    return current


def ladder(media, master):
    """[(name, bandwidth)] from the master playlist, in its order."""
    out, bandwidth = [], None
    for line in open(os.path.join(media, master)):
        line = line.strip()
        m = re.search(r"BANDWIDTH=(\d+)", line)
        if line.startswith("#EXT-X-STREAM-INF") and m:
            bandwidth = int(m.group(1))
        elif line and not line.startswith("#") and bandwidth:
            out.append((line.split("/")[0], bandwidth))
            bandwidth = None
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--player", required=True)
    ap.add_argument("--trace", required=True, choices=sorted(TRACES))
    ap.add_argument("--media", required=True)
    ap.add_argument("--master", default="master.m3u8")
    ap.add_argument("--reel", required=True)
    ap.add_argument("--seconds", type=float, default=40)
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    trace = TRACES[a.trace]
    renditions = ladder(a.media, a.master)
    bandwidth = dict(renditions)
    work = tempfile.mkdtemp(prefix="reel-qoe-")
    log = os.path.join(work, "server.log")
    server = subprocess.Popen([sys.executable, os.path.join(here, "throttle-server.py"), "--root", a.media, "--log", log,
                               "--schedule", ",".join(f"{t}:{b}" for t, b in trace)], stdout=subprocess.PIPE, text=True)
    port = int(server.stdout.readline().split()[1])
    url = f"http://127.0.0.1:{port}/{a.master}"
    fake = "fakesink sync=true"
    env = dict(os.environ, XDG_STATE_HOME=os.path.join(work, "state"))  # reel: nothing remembered (reel-remembered below)
    if a.player == "reel-remembered":
        # A returning user: the throughput of the network as it was before the trace began.
        os.makedirs(os.path.join(work, "state", "reel"))
        with open(os.path.join(work, "state", "reel", "throughput"), "w") as f:
            f.write(f"{trace[0][1]}\n")
    if a.player.startswith("reel"):
        cmd = [a.reel, "--headless", "--events", "--audio-sink", fake, "--video-sink", fake, url]
    elif a.player == "gst-play-1.0":
        cmd = ["gst-play-1.0", "--no-interactive", f"--audiosink={fake}", f"--videosink={fake}", url]
    else:
        cmd = ["mpv", "--no-config", "--ao=null", "--vo=null", "--term-status-msg=status ${=time-pos} ${paused-for-cache}",
               "--keep-open=no", url]
    start = time.monotonic()
    player = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    lines, buffer = [], b""
    while time.monotonic() - start < a.seconds:
        ready, _, _ = select.select([player.stdout], [], [], 0.1)
        if ready:
            chunk = os.read(player.stdout.fileno(), 65536)
            if not chunk:
                break
            buffer += chunk
            parts = re.split(rb"[\r\n]", buffer)
            buffer = parts.pop()
            now = time.monotonic() - start
            # mpv's terminal status line starts with an escape (ESC[K, clear to end of line).
            lines += [(now, ANSI.sub("", p.decode("utf-8", "replace"))) for p in parts if p.strip()]
    player.terminate()
    try:
        player.wait(10)
    except subprocess.TimeoutExpired:
        player.kill()
    server.terminate()
    server.wait()
    wall = time.monotonic() - start

    # When playback first began, and the waits after it.
    began, stalls, waiting_since = None, [], None
    if a.player.startswith("reel"):
        for now, text in lines:
            try:
                e = json.loads(text)
            except ValueError:
                continue
            if e.get("event") != "time-control":
                continue
            t = e.get("t", now)
            if e.get("status") == "playing":
                began = t if began is None else began
                if waiting_since is not None:
                    stalls.append(t - waiting_since)
                    waiting_since = None
            elif e.get("status") == "waiting" and began is not None and waiting_since is None:
                waiting_since = t
    elif a.player == "gst-play-1.0":
        prerolled = None
        for now, text in lines:
            if text.startswith("Prerolled"):
                prerolled = now
            m = re.match(r"Buffering\.\.\. (\d+)%", text)
            if not m:
                continue
            percent = int(m.group(1))
            if began is None:
                if percent >= 100 and prerolled is not None:
                    began = now
            elif percent < 100 and waiting_since is None:
                waiting_since = now
            elif percent >= 100 and waiting_since is not None:
                stalls.append(now - waiting_since)
                waiting_since = None
        if began is None and prerolled is not None:
            began = prerolled
    else:
        for now, text in lines:
            m = re.match(r"status (\S+) (\S+)", text)
            if not m or m.group(1) in ("", "(unavailable)"):
                continue
            paused = m.group(2) == "yes"
            if began is None and not paused:
                began = now
            elif began is not None and paused and waiting_since is None:
                waiting_since = now
            elif began is not None and not paused and waiting_since is not None:
                stalls.append(now - waiting_since)
                waiting_since = None
    if waiting_since is not None:
        stalls.append(wall - waiting_since)
    stall_s = sum(stalls)

    # What was fetched, and so what played.
    requests = [json.loads(l) for l in open(log) if l.strip()]
    played_for = {}
    for r in requests:
        m = re.match(r"/([^/]+)/[a-z]*(\d+)\.(?:ts|m4s)$", r["path"])
        if m and r["status"] == 200 and m.group(1) in bandwidth:
            played_for[int(m.group(2))] = m.group(1)  # the last rendition fetched for the index
    played_media = max(0.0, wall - (began or wall) - stall_s)
    indices = [i for i in sorted(played_for) if i * 2 < played_media]
    chosen = [bandwidth[played_for[i]] for i in indices]
    # What the trace allows: every bit the link carried during the run spread over the media
    # played (a player that knew the trace in advance could not average more), at most the top
    # rendition.
    steps = 1000
    budget = sum(rate_at(trace, wall * (k + 0.5) / steps) * wall / steps for k in range(steps))
    top = max(b for _, b in renditions)
    allowed = min(top, budget / played_media) if played_media > 0 else None
    switches = sum(1 for x, y in zip(indices, indices[1:]) if played_for[x] != played_for[y])
    result = {
        "status": "ok" if began is not None else "error",
        "stalls": len(stalls), "stall_s": round(stall_s, 3),
        "ttff_s": round(began, 3) if began is not None else None,
        "mean_kbps": round(sum(chosen) / len(chosen) / 1000, 1) if chosen else None,
        "allowed_kbps": round(allowed / 1000, 1) if allowed else None,
        "switches": switches, "segments": len(indices),
        "played": "".join(played_for[i][0] for i in indices),  # first letter of each played segment's rendition
    }
    if began is None:
        result["error"] = "never played: " + " | ".join(t for _, t in lines[-5:])[:400]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
