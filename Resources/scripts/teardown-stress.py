#!/usr/bin/env python3
"""Teardown stress: items replaced soon after they start, over HTTP, in a loop of reel processes.

Each run starts `reel --headless --ipc`, sends ten `load URL replace` at random 0-0.4 s intervals
(progressive MP4 and HLS from Resources/media served on 127.0.0.1), quits, and counts the runs
that did not end with status 0. GStreamer 1.22's decodebin3 crashed here (SIGSEGV in
gst_object_replace) in 3-6 runs of 40 before Workarounds/ParsingInDecodebin.swift.

    python3 Resources/scripts/teardown-stress.py [RUNS] [--gdb]   (after `swift build`)

With --gdb every reel runs under gdb and a crash leaves its threads' stacks in bt<run>.txt.
"""
import functools, http.server, json, os, random, socket, subprocess, sys, tempfile, threading, time

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
media = os.path.join(root, "Resources", "media")
reel = os.path.join(root, ".build", "x86_64-unknown-linux-gnu", "debug", "reel")
runs = int(next((a for a in sys.argv[1:] if a.isdigit()), "40"))
use_gdb = "--gdb" in sys.argv
work = tempfile.mkdtemp(prefix="reel-teardown-")


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def handle(self):
        try:
            super().handle()
        except Exception:
            pass  # the player hung up: expected when an item is replaced


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=media))
threading.Thread(target=server.serve_forever, daemon=True).start()
base = f"http://127.0.0.1:{server.server_address[1]}/"
files = ["clip2s.mp4", "hls/vod30/master.m3u8", "hd10s.mp4", "hls/abr/master.m3u8"]
failures = 0
for run in range(runs):
    sock = os.path.join(work, f"s{run}.sock")
    log = os.path.join(work, f"out{run}.txt")
    gdb = ["gdb", "-q", "-batch", "-ex", "run", "-ex", "thread apply all bt 12", "--args"] if use_gdb else []
    env = dict(os.environ, SWIFT_BACKTRACE="enable=no", XDG_STATE_HOME=work)
    with open(log, "w") as out:
        p = subprocess.Popen(gdb + [reel, "--headless", "--ipc", sock, "--audio-sink", "fakesink",
                                    "--video-sink", "fakesink sync=true", base + "clip2s.mp4"],
                             stdout=out, stderr=subprocess.STDOUT, env=env)
    for _ in range(600):
        if os.path.exists(sock):
            break
        time.sleep(0.05)
    client = socket.socket(socket.AF_UNIX)
    client.connect(sock)
    try:
        for i in range(10):
            time.sleep(random.uniform(0.0, 0.4))
            client.sendall((json.dumps({"command": ["load", base + random.choice(files), "replace"], "request_id": i}) + "\n").encode())
            if p.poll() is not None:
                break
        time.sleep(0.3)
        client.sendall((json.dumps({"command": ["quit"], "request_id": 99}) + "\n").encode())
    except OSError:
        pass
    try:
        status = p.wait(timeout=15)
    except subprocess.TimeoutExpired:
        p.kill()
        status = "hang"
    text = open(log, errors="replace").read()
    if status != 0 or "SIGSEGV" in text or "SIGABRT" in text:
        failures += 1
        if use_gdb:
            os.rename(log, os.path.join(work, f"bt{run}.txt"))
        print(f"run {run}: status {status} (output: {os.path.join(work, f'bt{run}.txt' if use_gdb else f'out{run}.txt')})", flush=True)
print(f"{failures} of {runs} runs failed")
sys.exit(1 if failures else 0)
