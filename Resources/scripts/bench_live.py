#!/usr/bin/env python3
"""make bench's live lane: Reel and gst-play-1.0 on the same live HLS event (issue 13).

Starts live-event-server.py (2 s segments, a window of 6, PROGRAM-DATE-TIME on every segment)
and, run by run, each player on it with fake sinks. For each run:
  ttff_s    seconds from exec to the first frame at the video sink: Reel's `live` event (sent at
            preroll), gst-play-1.0's "Prerolled." line (both read as they are printed);
  behind_s  how far behind the live edge that frame is: the wall-clock end of the newest segment
            when the player fetched its first segment, minus the start of that segment (the
            server's request log), so the same rule for both; Reel's own figure (`live` event's
            behindLiveEdge) is kept as reel_says_behind_s.
Prints one JSON line per run: {"bench":"live","variant":"sliding-12s","player":…,"run":…,…}.

    bench_live.py --reel PATH --media DIR [--runs N]
"""
import argparse, json, os, select, signal, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
p = argparse.ArgumentParser()
p.add_argument("--reel", required=True)
p.add_argument("--media", required=True)
p.add_argument("--runs", type=int, default=5)
args = p.parse_args()

work = tempfile.mkdtemp(prefix="reel-bench-live.")
info, log = os.path.join(work, "info.json"), os.path.join(work, "requests.log")
server = subprocess.Popen([sys.executable, os.path.join(here, "live-event-server.py"), args.media, info,
                           "--window", "6", "--log", log], stdin=subprocess.DEVNULL)
deadline = time.time() + 10
while not os.path.exists(info) and time.time() < deadline: time.sleep(0.02)
meta = json.load(open(info))
port, epoch0 = meta["port"], meta["epoch0"]
url = f"http://127.0.0.1:{port}/live/index.m3u8"
TARGET = 2.0
FAKE = "fakesink sync=true"


def requests_since(t0):
    out = []
    for line in open(log):
        o = json.loads(line)
        if o["t"] >= t0: out.append(o)
    return out


def run(player):
    if player == "reel":
        cmd = [args.reel, "--headless", "--events", "--audio-sink", FAKE, "--video-sink", FAKE, url]
        done = lambda line: line.startswith("{") and '"event":"live"' in line
    else:
        cmd = ["stdbuf", "-oL", "gst-play-1.0", "--no-interactive", f"--audiosink={FAKE}", f"--videosink={FAKE}", url]
        done = lambda line: line.strip() == "Prerolled."
    env = dict(os.environ, XDG_STATE_HOME=work)
    t0 = time.time()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, env=env, text=True, bufsize=1)
    first, said = None, None
    end = t0 + 30
    while time.time() < end:
        ready, _, _ = select.select([proc.stdout], [], [], 0.5)
        if not ready:
            if proc.poll() is not None: break
            continue
        line = proc.stdout.readline()
        if not line: break
        if done(line):
            first = time.time()
            if player == "reel":
                said = json.loads(line).get("behindLiveEdge")
            break
    time.sleep(0.5)
    proc.send_signal(signal.SIGTERM)
    try: proc.wait(timeout=10)
    except subprocess.TimeoutExpired: proc.kill(); proc.wait()
    result = {"bench": "live", "variant": "sliding-12s", "player": player}
    if first is None:
        result.update(status="error", error="no first frame within 30 s")
        return result
    segs = [r for r in requests_since(t0) if r["path"].startswith("/live/seg/")]
    behind = None
    if segs:
        r = segs[0]
        seq = int(r["path"][len("/live/seg/"):-3])
        edge = epoch0 + int((r["t"] - epoch0) / TARGET) * TARGET  # the newest segment's end then
        behind = edge - (epoch0 + seq * TARGET)
    result.update(status="ok", ttff_s=round(first - t0, 4), behind_s=behind, reel_says_behind_s=said)
    return result


try:
    for i in range(1, args.runs + 1):
        for player in ("reel", "gst-play-1.0"):
            r = run(player)
            r["run"] = i
            print(json.dumps(r), flush=True)
finally:
    server.terminate()
    server.wait()
