#!/usr/bin/env python3
"""An endless live HLS stream with signed segment URLs, for `make soak` (issue 12).

Serves /live/index.m3u8: a sliding window of 6 segments of TARGET seconds that moves with the
wall clock, cycling over the pre-made segments of a folder (an #EXT-X-DISCONTINUITY at every
wrap). Every refresh names the segments with a fresh signature (?sig=<random>&exp=<time>), as CDNs
that sign per request do, so a player's per-URL state grows with every refresh unless it forgets.
Every request must carry the header NAME: VALUE; the server counts those that do not, and
requests for a signature it never issued, and prints both to its state file on every request.

    live-signed-server.py DIR PORT_FILE STATE_FILE HEADER_NAME HEADER_VALUE

Binds 127.0.0.1 on a free port and writes the port to PORT_FILE. Stops on SIGTERM.
"""
import http.server, json, os, secrets, socketserver, sys, threading, time

folder, port_file, state_file, header_name, header_value = sys.argv[1:6]
segments = sorted(f for f in os.listdir(folder) if f.endswith(".ts"))
TARGET, WINDOW = 2.0, 6
start = time.time()
lock = threading.Lock()
state = {"requests": 0, "playlists": 0, "segments": 0, "missing_header": 0, "unknown_signature": 0}
issued = {}  # signature -> time issued (forgotten after 5 minutes)

def save():
    tmp = state_file + ".tmp"
    with open(tmp, "w") as f: json.dump(state, f)
    os.replace(tmp, state_file)

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args): pass

    def send(self, status, body, ctype):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path, _, query = self.path.partition("?")
        with lock:
            state["requests"] += 1
            if self.headers.get(header_name) != header_value: state["missing_header"] += 1
        if self.headers.get(header_name) != header_value:
            return self.send(401, b"unauthorized\n", "text/plain")
        if path == "/live/index.m3u8":
            newest = int((time.time() - start) / TARGET) + WINDOW
            first = newest - WINDOW + 1
            sig = secrets.token_hex(8)
            now = time.time()
            with lock:
                state["playlists"] += 1
                issued[sig] = now
                for old in [s for s, t in issued.items() if now - t > 300]: del issued[old]
            lines = ["#EXTM3U", "#EXT-X-VERSION:3", f"#EXT-X-TARGETDURATION:{int(TARGET)}", f"#EXT-X-MEDIA-SEQUENCE:{first}",
                     f"#EXT-X-DISCONTINUITY-SEQUENCE:{first // len(segments)}"]
            for seq in range(first, newest + 1):
                if seq % len(segments) == 0 and seq != first: lines.append("#EXT-X-DISCONTINUITY")
                lines.append(f"#EXTINF:{TARGET:.3f},")
                lines.append(f"seg/{seq}.ts?sig={sig}&exp={int(now) + 60}")
            return self.send(200, ("\n".join(lines) + "\n").encode(), "application/vnd.apple.mpegurl")
        if path.startswith("/live/seg/") and path.endswith(".ts"):
            params = dict(p.split("=", 1) for p in query.split("&") if "=" in p)
            with lock:
                state["segments"] += 1
                if params.get("sig") not in issued: state["unknown_signature"] += 1
                save()
            seq = int(path[len("/live/seg/"):-3])
            with open(os.path.join(folder, segments[seq % len(segments)]), "rb") as f:
                return self.send(200, f.read(), "video/mp2t")
        self.send(404, b"not found\n", "text/plain")

class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True

server = Server(("127.0.0.1", 0), Handler)
with open(port_file, "w") as f: f.write(str(server.server_address[1]))
save()
server.serve_forever()
