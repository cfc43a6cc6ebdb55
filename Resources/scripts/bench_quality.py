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
  mean_after10_kbps    the same from the 10th second of media on (issue 27: a fresh start on a
                       fast link plays what the link allows after 10 s)
  allowed_kbps         the bits the link carried during the run over the media seconds played, at
                       most the top rendition (a ceiling: on the oscillating trace above what even
                       oracle_kbps reaches, since bits carried early must wait in a buffer)
  oracle_kbps          the best a player knowing the trace in advance could play without a stall:
                       one rendition per 2 s segment, downloaded one after another from the start,
                       each in time for its turn after the first frame (a search over all choices)
  link_kbps            what the link carries at each moment: the highest rendition whose BANDWIDTH
                       the link's rate covers when that media plays, averaged over the media played
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


def finish(trace, t, bits, dt=0.01):
    """When a download of `bits` started at `t` ends on the trace."""
    while bits > 0:
        bits -= rate_at(trace, t) * dt
        t += dt
    return t


def oracle(trace, bandwidths, began, segments, seconds=2.0):
    """The highest mean BANDWIDTH over `segments` segments that a clairvoyant player could fetch
    back to back from time 0 with segment i complete by began + i × seconds: a search over
    (finish time, bits) keeping only choices no other beats on both (earlier and more)."""
    front = [(0.0, 0)]
    for i in range(segments):
        options = []
        for t, total in front:
            for b in bandwidths:
                f = finish(trace, t, b * seconds)
                if f <= began + seconds * i + 1e-9:
                    options.append((f, total + b))
        options.sort(key=lambda x: (x[0], -x[1]))
        front, best = [], -1
        for f, total in options:
            if total > best:
                front.append((round(f, 2), total))
                best = total
        if not front:
            return None
    return max(total for _, total in front) / segments


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
    later = [bandwidth[played_for[i]] for i in indices if i * 2 >= 10]  # after the first 10 s of media
    # What the trace allows: every bit the link carried during the run spread over the media
    # played (a player that knew the trace in advance could not average more), at most the top
    # rendition.
    steps = 1000
    budget = sum(rate_at(trace, wall * (k + 0.5) / steps) * wall / steps for k in range(steps))
    top = max(b for _, b in renditions)
    allowed = min(top, budget / played_media) if played_media > 0 else None
    switches = sum(1 for x, y in zip(indices, indices[1:]) if played_for[x] != played_for[y])
    ladder_bps = sorted(b for _, b in renditions)
    link = None
    if began is not None and played_media > 0:
        # Media second m plays at wall time began + m (stalls aside).
        carried = [max([b for b in ladder_bps if b <= rate_at(trace, began + (k + 0.5) * 0.1)] or [ladder_bps[0]])
                   for k in range(int(played_media * 10))]
        link = sum(carried) / len(carried) if carried else None
    best = oracle(trace, ladder_bps, began, len(indices)) if began is not None and indices else None
    result = {
        "status": "ok" if began is not None else "error",
        "stalls": len(stalls), "stall_s": round(stall_s, 3),
        "ttff_s": round(began, 3) if began is not None else None,
        "mean_kbps": round(sum(chosen) / len(chosen) / 1000, 1) if chosen else None,
        "mean_after10_kbps": round(sum(later) / len(later) / 1000, 1) if later else None,
        "allowed_kbps": round(allowed / 1000, 1) if allowed else None,
        "oracle_kbps": round(best / 1000, 1) if best else None,
        "link_kbps": round(link / 1000, 1) if link else None,
        "switches": switches, "segments": len(indices),
        "played": "".join(played_for[i][0] for i in indices),  # first letter of each played segment's rendition
    }
    if began is None:
        result["error"] = "never played: " + " | ".join(t for _, t in lines[-5:])[:400]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
