#!/usr/bin/env python3
"""A throttling HTTP server for adaptive-quality tests and benchmarks (stdlib only).

Serves the files under ROOT on 127.0.0.1 through one shared link whose bandwidth follows a
schedule over time, as a home connection does: every connection's bytes queue for the same link,
so two downloads at once each get a share. The schedule's clock starts at the first request.

  throttle-server.py --root DIR [--port N] --schedule "0:8000000,20:1000000" [--log FILE]

prints "port N" on stdout once it listens. --schedule: comma-separated SECONDS:BITS_PER_SECOND,
each from that second on. --log: one JSON line per answered request (t = seconds since the
first request when the answer began, path, status, bytes, seconds it took).
"""
import argparse
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CHUNK = 8192


class Link:
    """One shared link: a chunk is sent when the link is free, and holds it for its bytes at the
    schedule's rate (a FIFO bottleneck)."""

    def __init__(self, schedule):
        self.schedule = sorted(schedule)
        self.lock = threading.Lock()
        self.start = None
        self.free_at = 0.0

    def clock(self):
        with self.lock:
            if self.start is None:
                self.start = time.monotonic()
            return time.monotonic() - self.start

    def rate(self, t):
        current = self.schedule[0][1]
        for at, bps in self.schedule:
            if t >= at:
                current = bps
        return max(1, current)

    def reserve(self, size):
        """Returns the monotonic time at which `size` bytes have crossed the link."""
        now = self.clock()
        with self.lock:
            begin = max(now, self.free_at)
            # Integrate across schedule changes: bits left at each step's rate.
            bits, t = size * 8.0, begin
            while bits > 0:
                rate = self.rate(t)
                later = [at for at, _ in self.schedule if at > t]
                step_end = later[0] if later else float("inf")
                can = (step_end - t) * rate
                if can >= bits:
                    t += bits / rate
                    bits = 0
                else:
                    bits -= can
                    t = step_end
            self.free_at = t
            return self.start + t


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--schedule", required=True)
    parser.add_argument("--log")
    args = parser.parse_args()
    schedule = []
    for part in args.schedule.split(","):
        at, bps = part.split(":")
        schedule.append((float(at), float(bps)))
    link = Link(schedule)
    root = os.path.realpath(args.root)
    log = open(args.log, "a", buffering=1) if args.log else None
    log_lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def do_GET(self):
            began = link.clock()
            path = self.path.split("?", 1)[0]
            target = os.path.realpath(os.path.join(root, path.lstrip("/")))
            if not target.startswith(root + os.sep) or not os.path.isfile(target):
                body = b"not found\n"
                self.send_response(404)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                self.note(began, path, 404, 0)
                return
            with open(target, "rb") as f:
                data = f.read()
            kind = "application/vnd.apple.mpegurl" if target.endswith(".m3u8") else "video/mp2t"
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            sent = 0
            try:
                for offset in range(0, len(data), CHUNK):
                    chunk = data[offset:offset + CHUNK]
                    due = link.reserve(len(chunk))
                    delay = due - time.monotonic()
                    if delay > 0:
                        time.sleep(delay)
                    self.wfile.write(chunk)
                    sent += len(chunk)
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.note(began, path, 200, sent)

        def note(self, began, path, status, size):
            if log is None:
                return
            line = json.dumps({"t": round(began, 3), "path": path, "status": status, "bytes": size,
                               "seconds": round(link.clock() - began, 3)})
            with log_lock:
                log.write(line + "\n")

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    print("port %d" % server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
