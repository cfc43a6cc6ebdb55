"""What the bench lanes that drive Reel and mpv over their JSON sockets share: the socket, and a
process's CPU time and resident memory from /proc."""
import json, os, socket, time

HZ = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / HZ


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class Socket:
    def __init__(self, path, timeout=30):
        deadline = time.time() + timeout
        while True:
            try:
                self.s = socket.socket(socket.AF_UNIX)
                self.s.connect(path)
                break
            except OSError:
                self.s.close()
                if time.time() > deadline:
                    raise
                time.sleep(0.02)
        self.buf = b""
        self.events = []
        self.next_id = 1

    def lines(self, timeout):
        self.s.settimeout(timeout)
        try:
            data = self.s.recv(1 << 20)
        except socket.timeout:
            return []
        if not data:
            raise EOFError
        self.buf += data
        *complete, self.buf = self.buf.split(b"\n")
        return [json.loads(l) for l in complete if l.strip()]

    def wait_event(self, predicate, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline:
            for o in self.lines(0.2):
                if "event" in o:
                    self.events.append(o)
                    if predicate(o):
                        return True
        return False

    def request(self, command, timeout=30):
        rid = self.next_id
        self.next_id += 1
        start = time.perf_counter()
        self.s.sendall((json.dumps({"command": command, "request_id": rid}) + "\n").encode())
        deadline = time.time() + timeout
        while time.time() < deadline:
            for o in self.lines(0.5):
                if o.get("request_id") == rid:
                    return o, time.perf_counter() - start
                if "event" in o:
                    self.events.append(o)
        return None, timeout


