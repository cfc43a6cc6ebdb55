#!/usr/bin/env python3
"""A live HLS event served by the wall clock, for the live tests and `make bench` (issue 13).

Serves /live/index.m3u8: a sliding window of WINDOW segments of 2 s that moves in real time, with
#EXT-X-PROGRAM-DATE-TIME on every segment, cycling over the pre-made .ts segments of DIR (an
#EXT-X-DISCONTINUITY at every wrap). Segment n covers wall-clock [epoch0 + 2n, epoch0 + 2n + 2) and
appears in the playlist once that interval is over. /live/master.m3u8 names it as one variant.

    live-event-server.py DIR INFO_FILE [--window N] [--preroll SECONDS] [--header NAME:VALUE]
                         [--hold-back SECONDS] [--start-offset SECONDS] [--log FILE]

INFO_FILE receives {"port": P, "epoch0": T} once the server listens (127.0.0.1, a free port).
--fault (repeatable; times in seconds after the server starts) breaks the stream on purpose for
`reel check --watch`'s tests: stall:START:LENGTH (the playlist stops moving), skip:START (the
media sequence numbers jump ahead by one), drift:START:SECONDS (PROGRAM-DATE-TIME moves by
SECONDS), missing:START (the first segment listed after START answers 404), hang-ranged:START
(from START on, a segment asked for with a Range header — a checker's probe — waits 30 s),
status:SEQ:CODE (segment SEQ answers CODE the first time it is asked), slow:SEQ:SECONDS (segment
SEQ waits SECONDS before its answer, each time).
--preroll: seconds of segments that exist when the server starts (default: one window).
--header: every request must carry it (else 401); --log: one JSON line per request
(path, query, whether it carried the header) for the tests to read. Stops on SIGTERM.
Time-shift at the origin, as AWS MediaPackage: /live/index.m3u8?start=S[&end=E] (ISO 8601 or
seconds since 1970) answers the segments that overlap [S, E]: a VOD playlist (#EXT-X-ENDLIST)
once E has passed, otherwise an EVENT playlist from S that grows; --shift-without-dates leaves
#EXT-X-PROGRAM-DATE-TIME out of those (a player must then take the playlist's start as S).
"""
import argparse, datetime, http.server, json, os, socketserver, threading, time, urllib.parse

parser = argparse.ArgumentParser()
parser.add_argument("dir"); parser.add_argument("info")
parser.add_argument("--window", type=int, default=6)
parser.add_argument("--preroll", type=float)
parser.add_argument("--header")
parser.add_argument("--hold-back", type=float)
parser.add_argument("--start-offset", type=float)
parser.add_argument("--log")
parser.add_argument("--fault", action="append", default=[])
parser.add_argument("--shift-without-dates", action="store_true")
args = parser.parse_args()
started = time.time()
faults = [f.split(":") for f in args.fault]

TARGET = 2.0
segments = sorted(f for f in os.listdir(args.dir) if f.endswith(".ts"))
preroll = args.preroll if args.preroll is not None else args.window * TARGET
epoch0 = time.time() - preroll
header_name, _, header_value = (args.header or "").partition(":")
header_value = header_value.strip()
lock = threading.Lock()

def iso(t):
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")

def fault(kind):
    return [f[1:] for f in faults if f[0] == kind]

def missing_segments():
    return {int((started + float(s[0]) - epoch0) / TARGET) for s in fault("missing")}

def discontinuities_before(first):
    """The DISCONTINUITY tags that slid out of the window with the segments before `first`."""
    every = [int(n) for (n,) in fault("discontinuity-every")]
    if not every: return first // len(segments)
    return sum(1 for seq in range(1, first + 1) if seq % len(segments) == 0 or any(seq % n == 0 for n in every))

def playlist(now):
    elapsed = now - started
    for start, length in fault("stall"):
        if float(start) <= elapsed < float(start) + float(length): now = started + float(start)
    skip = sum(1 for (start,) in fault("skip") if elapsed >= float(start))
    drift = sum(float(sec) for start, sec in fault("drift") if elapsed >= float(start))
    newest = int((now - epoch0) / TARGET) - 1          # the last segment whose interval is over
    first = max(0, newest - args.window + 1)
    lines = ["#EXTM3U", "#EXT-X-VERSION:6", f"#EXT-X-TARGETDURATION:{int(TARGET)}",
             f"#EXT-X-MEDIA-SEQUENCE:{first + skip}", f"#EXT-X-DISCONTINUITY-SEQUENCE:{discontinuities_before(first)}"]
    if args.hold_back is not None: lines.append(f"#EXT-X-SERVER-CONTROL:HOLD-BACK={args.hold_back:.1f}")
    if args.start_offset is not None: lines.append(f"#EXT-X-START:TIME-OFFSET={args.start_offset:.1f}")
    for seq in range(first, newest + 1):
        every = [int(n) for (n,) in fault("discontinuity-every")]
        if seq != first and (seq % len(segments) == 0 or any(seq % n == 0 for n in every)): lines.append("#EXT-X-DISCONTINUITY")
        lines.append(f"#EXT-X-PROGRAM-DATE-TIME:{iso(epoch0 + seq * TARGET + drift)}")
        lines.append(f"#EXTINF:{TARGET:.3f},")
        lines.append(f"seg/{seq}.ts")
    return "\n".join(lines) + "\n"

def when(text):
    try: return float(text)
    except ValueError: return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()

def shifted_playlist(now, start, end):
    newest = int((now - epoch0) / TARGET) - 1
    first = max(0, int((start - epoch0) // TARGET))
    last = newest if end is None else min(newest, int((end - epoch0 - 1e-6) // TARGET))
    closed = end is not None and end <= now
    lines = ["#EXTM3U", "#EXT-X-VERSION:6", f"#EXT-X-TARGETDURATION:{int(TARGET)}", f"#EXT-X-MEDIA-SEQUENCE:{first}",
             f"#EXT-X-DISCONTINUITY-SEQUENCE:{first // len(segments)}", f"#EXT-X-PLAYLIST-TYPE:{'VOD' if closed else 'EVENT'}"]
    for seq in range(first, last + 1):
        if seq % len(segments) == 0 and seq != first: lines.append("#EXT-X-DISCONTINUITY")
        if not args.shift_without_dates: lines.append(f"#EXT-X-PROGRAM-DATE-TIME:{iso(epoch0 + seq * TARGET)}")
        lines.append(f"#EXTINF:{TARGET:.3f},")
        lines.append(f"seg/{seq}.ts")
    if closed: lines.append("#EXT-X-ENDLIST")
    return "\n".join(lines) + "\n"

answered_once = set()

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass

    def send(self, status, body, ctype):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path, _, query = self.path.partition("?")
        carried = not header_name or self.headers.get(header_name) == header_value
        if args.log:
            with lock, open(args.log, "a") as f:
                f.write(json.dumps({"t": time.time(), "path": path, "query": query, "header": carried}) + "\n")
        if not carried:
            return self.send(401, b"unauthorized\n", "text/plain")
        if path == "/live/master.m3u8":
            body = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=320x180\nindex.m3u8\n"
            return self.send(200, body.encode(), "application/vnd.apple.mpegurl")
        shift = urllib.parse.parse_qs(query)
        if path == "/live/index.m3u8" and "start" in shift:
            try: start, end = when(shift["start"][0]), (when(shift["end"][0]) if shift.get("end", [""])[0] else None)
            except ValueError: return self.send(400, b"bad start or end\n", "text/plain")
            return self.send(200, shifted_playlist(time.time(), start, end).encode(), "application/vnd.apple.mpegurl")
        if path == "/live/index.m3u8":
            return self.send(200, playlist(time.time()).encode(), "application/vnd.apple.mpegurl")
        if path.startswith("/live/seg/") and path.endswith(".ts"):
            try: seq = int(path[len("/live/seg/"):-3])
            except ValueError: return self.send(404, b"not found\n", "text/plain")
            if seq < 0 or epoch0 + (seq + 1) * TARGET > time.time() + 0.5 or seq in missing_segments():
                return self.send(404, b"not yet\n", "text/plain")
            # hang-ranged:T: from T s on, a ranged segment request (a checker's probe) waits 30 s.
            if self.headers.get("Range") and any(time.time() - started >= float(t) for (t,) in fault("hang-ranged")):
                time.sleep(30)
            for n, code in fault("status"):
                if int(n) == seq and seq not in answered_once:
                    answered_once.add(seq)
                    return self.send(int(code), b"fault\n", "text/plain")
            for n, seconds in fault("slow"):
                if int(n) == seq: time.sleep(float(seconds))
            with open(os.path.join(args.dir, segments[seq % len(segments)]), "rb") as f:
                return self.send(200, f.read(), "video/mp2t")
        self.send(404, b"not found\n", "text/plain")

class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True

server = Server(("127.0.0.1", 0), Handler)
tmp = args.info + ".tmp"
with open(tmp, "w") as f: json.dump({"port": server.server_address[1], "epoch0": epoch0}, f)
os.replace(tmp, args.info)
# Ends with the test that started it: a test killed mid-run (a hung lane) leaves no server behind.
parent = os.getppid()


def follow_parent():
    while os.getppid() == parent:
        time.sleep(1)
    os._exit(0)


threading.Thread(target=follow_parent, daemon=True).start()
server.serve_forever()
