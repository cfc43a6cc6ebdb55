#!/usr/bin/python3
"""make bench's preview lane (issue 48): hovering the seek bar must not make the window stutter.
Reel plays hd60s.mp4 (1920×1080, 30 fps, a keyframe a second, made here with GStreamer
when missing) on a loop in its window, 10 s without a hover and 10 s
with the pointer sweeping the seek bar (a new place every 50 ms, back and forth), and reports
for each: stall_ms, the longest gap between replies to `get_property time-pos` asked every 20 ms
(a frozen main loop shows here); dropped, the frames the sink dropped (the socket's `stats`);
cpu_s, Reel's CPU (user+sys) over the 10 s; previews, the frames the preview pipeline decoded
(its debug lines). Prints one JSON object per run and a table.
usage: bench-preview.py REEL MEDIA_DIR OUT_JSONL"""
import json, os, re, shutil, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_socket import Socket, cpu_seconds

reel, media, out = sys.argv[1], sys.argv[2], sys.argv[3]
clip = os.path.abspath(os.path.join(media, "hd60s.mp4"))
work = tempfile.mkdtemp(prefix="reel-bench-preview.")
if not os.path.exists(clip):
    subprocess.run(["gst-launch-1.0", "-q", "videotestsrc", "pattern=ball", "num-buffers=1800", "!", "video/x-raw,width=1920,height=1080,framerate=30/1",
                    "!", "timeoverlay", "font-desc=Sans 48", "!", "x264enc", "speed-preset=ultrafast", "key-int-max=30", "!", "h264parse", "!",
                    "mp4mux", "!", "filesink", f"location={clip}.tmp"], check=True)
    os.rename(clip + ".tmp", clip)


def run(mode):
    sock = os.path.join(work, f"{mode}.sock")
    err = os.path.join(work, f"{mode}.err")
    env = dict(os.environ, XDG_STATE_HOME=os.path.join(work, "state"), NO_AT_BRIDGE="1", REEL_DEBUG="engine:4")
    p = subprocess.Popen([reel, "--no-resume", "--no-mpris", "--autoload=no", "--loop", "one", "--ipc", sock, "--audio-sink", "fakesink sync=true", clip],
                         env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(err, "w"))
    result = {"bench": "preview", "mode": mode, "player": "reel"}
    try:
        s = Socket(sock)
        if not s.wait_event(lambda o: o.get("event") == "time-control" and o.get("status") == "playing", 60):
            result["error"] = "never played"
            return result
        time.sleep(1)
        found = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--pid", str(p.pid)], capture_output=True, text=True, timeout=20).stdout.split()
        geometry = subprocess.run(["xdotool", "getwindowgeometry", "--shell", found[-1]], capture_output=True, text=True).stdout
        g = dict(line.split("=") for line in geometry.split())
        x0, y0, w, h = int(g["X"]), int(g["Y"]), int(g["WIDTH"]), int(g["HEIGHT"])
        bar_y = y0 + h - 54  # the seek row, above the buttons' row
        stats0 = (s.request(["get_property", "stats"])[0] or {}).get("data") or {}
        cpu0 = cpu_seconds(p.pid)
        end = time.time() + 10
        worst, last, step, next_move = 0.0, time.perf_counter(), 0, time.time()
        while time.time() < end:
            if mode == "hover" and time.time() >= next_move:
                # Back and forth over the bar's middle 80 %, 40 places each way.
                k = step % 80
                frac = 0.1 + 0.8 * (k if k < 40 else 79 - k) / 39
                subprocess.Popen(["xdotool", "mousemove", str(x0 + int(w * frac)), str(bar_y)])
                step += 1
                next_move += 0.05
            s.request(["get_property", "time-pos"], timeout=10)
            now = time.perf_counter()
            worst = max(worst, now - last)
            last = now
            time.sleep(0.02)
        result["cpu_s"] = round(cpu_seconds(p.pid) - cpu0, 2)
        stats1 = (s.request(["get_property", "stats"])[0] or {}).get("data") or {}
        result["dropped"] = stats1.get("droppedFrames", 0) - stats0.get("droppedFrames", 0)
        result["rendered"] = stats1.get("renderedFrames", 0) - stats0.get("renderedFrames", 0)
        result["stall_ms"] = round(max(0.0, worst - 0.02) * 1000, 1)
    finally:
        p.kill()
        p.wait()
    result["previews"] = len(re.findall(r"seek preview at", open(err).read()))
    return result


rows = []
try:
    for mode in ["still", "hover"]:
        r = run(mode)
        rows.append(r)
        with open(out, "a") as f:
            f.write(json.dumps(r) + "\n")
        print(json.dumps(r), flush=True)
finally:
    shutil.rmtree(work, ignore_errors=True)

print(f"\n{'mode':6} {'stall ms':>8} {'dropped':>7} {'rendered':>8} {'CPU s/10 s':>10} {'previews':>8}")
for r in rows:
    print(f"{r['mode']:6} {r.get('stall_ms', '-'):>8} {r.get('dropped', '-'):>7} {r.get('rendered', '-'):>8} {r.get('cpu_s', '-'):>10} {r.get('previews', '-'):>8}"
          + (f"  {r['error']}" if "error" in r else ""))
