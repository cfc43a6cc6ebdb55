#!/usr/bin/env python3
"""make bench's live DASH lane (issue 31): Reel, gst-play-1.0 and mpv on the same live DASH
stream, ffmpeg's DASH muxer in real time (`-re`, 2 s segments, `-window_size 6
-extra_window_size 2`, SegmentTemplate with `$Number$` over a SegmentTimeline), joined once its
window has slid, served by a static server on 127.0.0.1 that logs every request.

For each run of each player:
  ttff_s    seconds from exec to the first frame: Reel's `live` event (sent at preroll),
            gst-play-1.0's "Prerolled." line, mpv's first status line with a position;
  behind_s  how far behind the live edge that frame is: the end of the newest segment available
            when the player asked for its first video segment (availabilityStartTime + 2 s × n),
            minus that segment's start, by the server's log, the same rule for all; Reel's own
            figure (its `live` event's behindLiveEdge) is kept as reel_says_behind_s.
Prints one JSON line per run: {"bench":"live-dash","variant":"ffmpeg-12s","player":…,"run":…,…}.
A player that shows no first frame within 30 s is an error row (gst-play-1.0 1.22 on ffmpeg's
live MPD: its typefinder calls the MPD application/xml, or dashdemux2 waits for a segment
minutes ahead once the window has slid).

    bench_live_dash.py --reel PATH [--runs N]
"""
import argparse, datetime, http.server, json, os, re, select, shutil, signal, socketserver, subprocess, sys, tempfile, threading, time

p = argparse.ArgumentParser()
p.add_argument("--reel", required=True)
p.add_argument("--runs", type=int, default=3)
args = p.parse_args()

SEGMENT = 2.0
FAKE = "fakesink sync=true"
work = tempfile.mkdtemp(prefix="reel-bench-live-dash.")
media = os.path.join(work, "live")
os.makedirs(media)
ffmpeg = subprocess.Popen(
    ["ffmpeg", "-nostdin", "-loglevel", "error", "-re", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25",
     "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency",
     "-g", "50", "-keyint_min", "50", "-sc_threshold", "0", "-b:v", "600k", "-c:a", "aac", "-b:a", "64k",
     "-f", "dash", "-seg_duration", "2", "-window_size", "6", "-extra_window_size", "2", "-use_timeline", "1", "-use_template", "1",
     "-streaming", "0", "-remove_at_exit", "1", "manifest.mpd"], cwd=media, stdin=subprocess.DEVNULL)

requests, lock = [], threading.Lock()


class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **k):
        super().__init__(*a, directory=media, **k)

    def log_message(self, *a):
        pass

    def do_GET(self):
        with lock:
            requests.append({"t": time.time(), "path": self.path})
        super().do_GET()


socketserver.ThreadingTCPServer.allow_reuse_address = True
server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
url = f"http://127.0.0.1:{server.server_address[1]}/manifest.mpd"


def anchor():
    text = open(os.path.join(media, "manifest.mpd")).read()
    value = re.search(r'availabilityStartTime="([^"]+)"', text).group(1)
    return datetime.datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()


# Join once the window has slid (its first segment is no longer the stream's first).
deadline = time.time() + 60
while time.time() < deadline:
    try:
        text = open(os.path.join(media, "manifest.mpd")).read()
        if '<S t="' in text and '<S t="0"' not in text:
            break
    except OSError:
        pass
    time.sleep(0.5)
ast = anchor()


def run(player):
    if player == "reel":
        cmd = [args.reel, "--headless", "--events", "--audio-sink", FAKE, "--video-sink", FAKE, url]
        done = lambda line: line.startswith("{") and '"event":"live"' in line
    elif player == "gst-play-1.0":
        cmd = ["stdbuf", "-oL", "gst-play-1.0", "--no-interactive", f"--audiosink={FAKE}", f"--videosink={FAKE}", url]
        done = lambda line: line.strip() == "Prerolled."
    else:
        cmd = ["mpv", "--no-config", "--ao=null", "--vo=null", "--term-status-msg=status ${=time-pos}", url]
        done = lambda line: re.search(r"status [0-9.]+", line) is not None
    env = dict(os.environ, XDG_STATE_HOME=work)
    t0 = time.time()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)
    first, said, buffer = None, None, b""
    end = t0 + 30
    while time.time() < end and first is None:
        ready, _, _ = select.select([proc.stdout], [], [], 0.5)
        if not ready:
            if proc.poll() is not None:
                break
            continue
        chunk = os.read(proc.stdout.fileno(), 65536)
        if not chunk:
            break
        buffer += chunk
        parts = re.split(rb"[\r\n]", buffer)
        buffer = parts.pop()
        for raw in parts:
            line = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", raw.decode("utf-8", "replace"))
            if done(line):
                first = time.time()
                if player == "reel":
                    said = json.loads(line).get("behindLiveEdge")
                break
    time.sleep(0.5)
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    result = {"bench": "live-dash", "variant": "ffmpeg-12s", "player": player}
    if first is None:
        result.update(status="error", error="no first frame within 30 s")
        return result
    with lock:
        segs = [r for r in requests if r["t"] >= t0 and re.match(r"/chunk-stream0-(\d+)\.m4s", r["path"])]
    behind = None
    if segs:
        r = segs[0]
        number = int(re.match(r"/chunk-stream0-(\d+)\.m4s", r["path"]).group(1))
        edge = ast + int((r["t"] - ast) / SEGMENT) * SEGMENT  # the newest segment's end then
        behind = round(edge - (ast + (number - 1) * SEGMENT), 3)
    result.update(status="ok", ttff_s=round(first - t0, 4), behind_s=behind, reel_says_behind_s=said)
    return result


try:
    players = ["reel", "gst-play-1.0"] + (["mpv"] if shutil.which("mpv") else [])
    for i in range(1, args.runs + 1):
        for player in players:
            r = run(player)
            r["run"] = i
            print(json.dumps(r), flush=True)
finally:
    server.shutdown()
    ffmpeg.terminate()
    try:
        ffmpeg.wait(timeout=10)
    except subprocess.TimeoutExpired:
        ffmpeg.kill()
    shutil.rmtree(work, ignore_errors=True)
