#!/usr/bin/python3
"""make bench's queue lane (issue 51): a playlist of N entries of the same 2 s clip, for N in
10^2 .. 10^5, played by Reel and by mpv on the same lists, one after the other:
  - playing: seconds from start to playing (Reel: its `time-control playing` event; mpv: the
    first `playback-restart` on its socket), headless (Reel: fakesinks; mpv: --vo=null --ao=null);
  - rss_mb: resident memory 3 s after playing, headless;
  - count_ms: the socket's `get_property playlist-count` while playing (median of 20);
  - window_playing_s: the same in a window (the window built and shown first);
  - queued_s: in the window, seconds from start until the socket counts all N entries (Reel
    plays a big list's first entries while it reads the rest);
  - window_cpu_s, window_rss_mb: CPU (user+sys) over 10 s of play in a window (Reel's GTK
    window; mpv --vo=x11) once every entry is queued, and memory then;
  - stall_ms: in the window, the longest gap between replies to `get_property time-pos` asked
    every 20 ms over those 10 s, the playlist shown 3 s in (Reel's panel, F9, opening at the
    current row; mpv's list, F8): a frozen main loop shows here;
  - edit_stall_ms, move_ms: the same over the next 4 s, the list shown and edited: the playing
    entry moved from the first place to the last (`playlist-move 0 N`, what a drop in Reel's
    panel asks for; the panel follows it there) and back; move_ms the longer reply.
Every entry has its own title (#EXTINF), as a real list has, so a move changes every row between.
Prints one JSON object per (N, player) and a table. usage: bench-queue.py REEL MEDIA_DIR OUT_JSONL [SIZES]"""
import json, os, shutil, statistics, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_socket import Socket, cpu_seconds, rss_mb

reel, media, out = sys.argv[1], sys.argv[2], sys.argv[3]
sizes = [int(s) for s in (sys.argv[4] if len(sys.argv) > 4 else "100,1000,10000,100000").split(",")]
clip = os.path.abspath(os.path.join(media, "clip2s.mp4"))
work = tempfile.mkdtemp(prefix="reel-bench-queue.")
mpv = shutil.which("mpv")
def playing_event(player):
    if player == "reel":
        return lambda o: o.get("event") == "time-control" and o.get("status") == "playing"
    return lambda o: o.get("event") == "playback-restart"


def start(player, listfile, sock, window):
    env = dict(os.environ, XDG_STATE_HOME=os.path.join(work, "state"), NO_AT_BRIDGE="1")
    if player == "reel":
        args = [reel, "--no-resume", "--no-mpris", "--autoload=no", "--ipc", sock, "--audio-sink", "fakesink sync=true"]
        args += [] if window else ["--headless", "--video-sink", "fakesink sync=true"]
        args += [listfile]
    else:
        args = [mpv, "--no-config", "--really-quiet", "--idle=no", f"--input-ipc-server={sock}", "--ao=null",
                "--vo=x11" if window else "--vo=null", "--loop-playlist=no", "--playlist=" + listfile]
    t0 = time.perf_counter()
    p = subprocess.Popen(args, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, f"{player}.err"), "a"))
    return p, t0


def measure(player, n, listfile):
    print(f"queue: {player} with {n} entries", file=sys.stderr, flush=True)
    result = {"bench": "queue", "entries": n, "player": player}
    sock = os.path.join(work, f"{player}.sock")
    # Headless: to playing, memory, the count's reply time.
    for path in (sock,):
        if os.path.exists(path):
            os.unlink(path)
    p, t0 = start(player, listfile, sock, window=False)
    try:
        s = Socket(sock)
        if not s.wait_event(playing_event(player), 120):
            result["error"] = "never played (headless)"
            return result
        result["playing_s"] = round(time.perf_counter() - t0, 3)
        time.sleep(3)
        result["rss_mb"] = round(rss_mb(p.pid), 1)
        name = "playlist-count"
        times = []
        for _ in range(20):
            reply, took = s.request(["get_property", name])
            if reply is None or reply.get("error") != "success":
                result["error"] = f"{name}: {reply}"
                break
            times.append(took * 1000)
        if times:
            result["count_ms"] = round(statistics.median(times), 2)
    finally:
        p.kill()
        p.wait()
    # In a window: CPU and memory over 10 s of play, and the main loop's longest stall.
    if os.path.exists(sock):
        os.unlink(sock)
    p, t0 = start(player, listfile, sock, window=True)
    try:
        s = Socket(sock)
        if not s.wait_event(playing_event(player), 120):
            result["error"] = "never played (window)"
            return result
        result["window_playing_s"] = round(time.perf_counter() - t0, 3)
        # The play measured is with the whole list queued (Reel appends the rest of a big list
        # while its first entries play): queued_s says when it was.
        deadline = time.time() + 60
        while time.time() < deadline:
            reply, _ = s.request(["get_property", "playlist-count"])
            if reply and reply.get("data") == n:
                result["queued_s"] = round(time.perf_counter() - t0, 2)
                break
            time.sleep(0.05)
        time.sleep(1)

        def watch(seconds, actions):
            """Asks for time-pos every 20 ms for `seconds`, doing each (at, action) on the way;
            returns the longest gap between replies, past the 20 ms asked for (ms)."""
            t_end, worst, last = time.time() + seconds, 0.0, time.perf_counter()
            actions = sorted((time.time() + at, act) for at, act in actions)
            while time.time() < t_end:
                if actions and time.time() >= actions[0][0]:
                    actions.pop(0)[1]()
                s.request(["get_property", "time-pos"], timeout=10)
                now = time.perf_counter()
                worst, last = max(worst, now - last), now
                time.sleep(0.02)
            return round(max(0.0, worst - 0.02) * 1000, 1)

        def show_playlist():
            # Reel's panel (F9), opening at the current row; mpv's on-screen list (F8).
            found = subprocess.run(["xdotool", "search", "--pid", str(p.pid)], capture_output=True, text=True).stdout.split()
            if found:
                subprocess.run(["xdotool", "key", "--window", found[-1], "F9" if player == "reel" else "F8"], capture_output=True)

        cpu0 = cpu_seconds(p.pid)
        result["stall_ms"] = watch(10, [(3, show_playlist)])
        result["window_cpu_s"] = round(cpu_seconds(p.pid) - cpu0, 2)
        result["window_rss_mb"] = round(rss_mb(p.pid), 1)
        # Then the list edited while it is shown: the playing entry from the first place to the
        # last (what a drop in Reel's panel asks for; the panel follows it), and back.
        move_ms = []

        def move(a, b):
            def act():
                reply, took = s.request(["playlist-move", a, b], timeout=10)
                move_ms.append(took * 1000 if reply and reply.get("error") == "success" else float("nan"))
            return act
        result["edit_stall_ms"] = watch(4, [(0.5, move(0, n)), (2.5, move(n - 1, 0))])
        result["move_ms"] = round(max(move_ms), 1) if move_ms else None
    finally:
        p.kill()
        p.wait()
    return result


rows = []
try:
    for n in sizes:
        listfile = os.path.join(work, f"list-{n}.m3u")
        with open(listfile, "w") as f:
            f.write("#EXTM3U\n" + "".join(f"#EXTINF:2,Entry {i}\n{clip}\n" for i in range(n)))
        for player in ["reel"] + (["mpv"] if mpv else []):
            r = measure(player, n, listfile)
            rows.append(r)
            with open(out, "a") as f:
                f.write(json.dumps(r) + "\n")
            print(json.dumps(r), flush=True)
finally:
    for name in os.listdir(work):
        if name.endswith(".err") and os.path.getsize(os.path.join(work, name)):
            print(f"--- {name}:\n" + open(os.path.join(work, name)).read()[-1500:], file=sys.stderr)
    shutil.rmtree(work, ignore_errors=True)

print(f"\n{'entries':>8} {'player':6} {'playing s':>9} {'RSS MB':>7} {'count ms':>8} {'queued s':>8} {'win CPU s/10s':>13} {'win RSS MB':>10} {'stall ms':>8} {'edit stall':>10} {'move ms':>7}")
for r in rows:
    print(f"{r['entries']:>8} {r['player']:6} {r.get('playing_s', '-'):>9} {r.get('rss_mb', '-'):>7} {r.get('count_ms', '-'):>8} {r.get('queued_s', '-'):>8} "
          f"{r.get('window_cpu_s', '-'):>13} {r.get('window_rss_mb', '-'):>10} {r.get('stall_ms', '-'):>8} {r.get('edit_stall_ms', '-'):>10} {r.get('move_ms', '-'):>7}" + (f"  {r['error']}" if "error" in r else ""))
