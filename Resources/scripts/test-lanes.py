#!/usr/bin/env python3
"""Runs the XCTest suite in parallel lanes (`make test`).

Each lane is its own process of the test bundle under its own virtual X display (xvfb-run) and
its own private session bus (dbus-run-session); tests already use their own temporary folders,
ports, servers and sockets. The tests are dealt to the lanes by their last measured times
(Tests/test-times.tsv, committed; .build/test-times.tsv, this machine's last run, wins), longest
first, so the lanes end together.

A lane whose process dies (a crash) or says nothing for --silence seconds (a hang) loses only the
test it was running: that test is failed with the lane's last lines, and the lane goes on with
its remaining tests in a new process.

At the end: every failure with its messages, the ten slowest tests, each failure again in one
line (a CI page may keep only the tail), and one line
`tests: N passed, N failed, N skipped`. Exit status 0 only when nothing failed and every listed
test ran.

    test-lanes.py BUNDLE [--lanes N] [--load] [--filter REGEX] [--save-times]

--load runs a busy loop on one core beside the suite (make test LOAD=1): what a test must
withstand on a busy machine.
"""
import argparse
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMMITTED_TIMES = ROOT / "Tests" / "test-times.tsv"
UNKNOWN_TEST_SECONDS = 3.0

CASE_RE = re.compile(r"^Test Case '([^']+)' (started|passed|failed|skipped)(?: \((\d+(?:\.\d+)?) seconds\))?")
ERROR_RE = re.compile(r"^(.*?):(\d+): error: ([^ ]+) : (.*)$")


def list_tests(bundle):
    out = subprocess.run([bundle, "--list-tests"], capture_output=True, text=True, check=True).stdout
    return [line.strip() for line in out.splitlines() if "/" in line and "." in line.split("/")[0]]


def read_times(path):
    times = {}
    try:
        for line in path.read_text().splitlines():
            name, _, seconds = line.partition("\t")
            if seconds:
                times[name] = float(seconds)
    except FileNotFoundError:
        pass
    return times


def short_name(spec):
    """'Module.Class/testX' -> 'Class.testX' (how XCTest on Linux names a case in its output)."""
    cls, _, test = spec.partition("/")
    return cls.split(".", 1)[1] + "." + test


def deal(specs, times, lanes):
    """Longest processing time first: each test to the lane that ends soonest so far."""
    loads = [0.0] * lanes
    dealt = [[] for _ in range(lanes)]
    for spec in sorted(specs, key=lambda s: -times.get(s, UNKNOWN_TEST_SECONDS)):
        i = loads.index(min(loads))
        dealt[i].append(spec)
        loads[i] += times.get(spec, UNKNOWN_TEST_SECONDS)
    # Within a lane, the suite's own order (classes together: shared fixtures stay warm).
    order = {s: n for n, s in enumerate(specs)}
    return [sorted(d, key=order.get) for d in dealt], loads


class Lane(threading.Thread):
    def __init__(self, number, bundle, specs, args, log_dir):
        super().__init__(daemon=True)
        self.number, self.bundle, self.specs, self.args = number, bundle, specs, args
        self.log_path = log_dir / f"lane-{number}.log"
        self.results = {}   # short name -> (status, seconds)
        self.messages = {}  # short name -> [lines]
        self.lost = []      # (short name, why): crashed or hung while running
        self.processes = 0

    def command(self, specs):
        # -noreset: Xvfb otherwise resets when its last client leaves, and a client connecting
        # during the reset is cut off (ECONNRESET): a sink probe right after another one's close
        # failed to open the display (VideoOutputSinkTests, 1 run in 3 on a busy machine). A
        # desktop's X server always has clients (the window manager); a test lane between tests
        # has none.
        env_display = ["xvfb-run", "-a", "-n", str(90 + 10 * self.number), "-s", "-screen 0 1280x800x24 -nolisten tcp -noreset"]
        # stdbuf: XCTest writes to a pipe through stdio; line by line, a hang or a crash shows which test it was in.
        return env_display + ["dbus-run-session", "--", "stdbuf", "-oL", "-eL", self.bundle, ",".join(specs)]

    def dump_stacks(self, group):
        """Every thread's stack of the lane's hung test process, into the lane's folder (the
        failure's message names the file): a hang is a deadlock to read, not a timeout to rerun."""
        found = subprocess.run(["pgrep", "-g", str(group)], capture_output=True, text=True).stdout.split()
        bundle = os.path.realpath(self.bundle)
        self.stack_file = None
        for pid in found:
            try:
                if os.path.realpath(f"/proc/{pid}/exe") != bundle:
                    continue  # xvfb-run, Xvfb, the bus
            except OSError:
                continue
            path = os.path.join(os.path.dirname(self.log_path), f"hang-lane-{self.number}-{pid}.txt")
            with open(path, "w") as out:
                subprocess.run(["gdb", "-p", pid, "-batch", "-ex", "thread apply all bt 40"], stdout=out, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, timeout=120)
            self.stack_file = path

    def run(self):
        remaining = list(self.specs)
        by_short = {short_name(s): s for s in self.specs}
        with open(self.log_path, "w") as log:
            while remaining:
                self.processes += 1
                running, tail = None, []
                proc = subprocess.Popen(self.command(remaining), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL, text=True, errors="replace", start_new_session=True)
                last_output = [time.monotonic()]
                hung = [False]

                def watchdog():
                    while proc.poll() is None:
                        if time.monotonic() - last_output[0] > self.args.silence:
                            hung[0] = True
                            self.dump_stacks(proc.pid)
                            try:
                                os.killpg(proc.pid, signal.SIGKILL)
                            except ProcessLookupError:
                                pass
                            return
                        time.sleep(1)
                threading.Thread(target=watchdog, daemon=True).start()
                # Lines through a queue: a helper the test started in a session of its own (a
                # server) may keep the pipe open after the lane's process is gone, so the end of
                # the output is the process's exit (and 10 s to drain), not the pipe's end.
                lines = queue.Queue()

                def reader():
                    for line in proc.stdout:
                        lines.put(line)
                    lines.put(None)
                threading.Thread(target=reader, daemon=True).start()
                exited_at = None
                while True:
                    try:
                        line = lines.get(timeout=1)
                    except queue.Empty:
                        if proc.poll() is not None:
                            exited_at = exited_at or time.monotonic()
                            if hung[0] or time.monotonic() - exited_at > 10:
                                break
                        continue
                    if line is None:
                        break
                    last_output[0] = time.monotonic()
                    log.write(line)
                    tail = (tail + [line.rstrip("\n")])[-40:]
                    m = CASE_RE.match(line)
                    if m:
                        name, what, seconds = m.group(1), m.group(2), m.group(3)
                        if what == "started":
                            running = name
                        else:
                            self.results[name] = (what, float(seconds or 0))
                            running = None
                        continue
                    e = ERROR_RE.match(line.rstrip("\n"))
                    if e:
                        self.messages.setdefault(e.group(3), []).append(f"{e.group(1)}:{e.group(2)}: {e.group(4)}")
                    elif running and self.messages.get(running) is not None and line.startswith(" "):
                        self.messages[running].append(line.rstrip("\n"))
                proc.wait()
                # Stop whatever the lane left behind (an Xvfb, a bus, a reel child).
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                done = set(self.results)
                if running and running not in done:
                    why = f"hung: no output for {self.args.silence:.0f} s" if hung[0] else f"the test process died (status {proc.returncode})"
                    if hung[0] and getattr(self, "stack_file", None):
                        why += f"; every thread's stack in {self.stack_file}"
                    self.lost.append((running, why))
                    self.results[running] = ("failed", 0.0)
                    self.messages.setdefault(running, []).extend([why, "its last lines:"] + ["  " + t for t in tail[-25:]])
                    done.add(running)
                left = [s for s in remaining if short_name(s) not in done]
                if left == remaining:  # nothing ran at all: do not loop for ever
                    for s in left:
                        self.results[short_name(s)] = ("failed", 0.0)
                        self.messages.setdefault(short_name(s), []).append(
                            f"never ran: the lane's process exited with {proc.returncode}; its last lines:")
                        self.messages[short_name(s)].extend("  " + t for t in tail[-25:])
                    left = []
                remaining = left
        self.by_short = by_short


def main():
    p = argparse.ArgumentParser()
    p.add_argument("bundle")
    p.add_argument("--lanes", type=int, default=int(os.environ.get("TEST_LANES", "4")))
    p.add_argument("--load", action="store_true")
    p.add_argument("--filter", default=os.environ.get("TEST_FILTER", ""))
    p.add_argument("--silence", type=float, default=300.0, help="seconds without output that make a hang (the longest test, QuitDeadlineTests, prints within 140 s)")
    p.add_argument("--save-times", action="store_true", help="write this run's times to Tests/test-times.tsv")
    args = p.parse_args()

    specs = list_tests(args.bundle)
    if args.filter:
        specs = [s for s in specs if re.search(args.filter, s)]
    if not specs:
        print("tests: nothing matches", args.filter, file=sys.stderr)
        return 1
    local_times = ROOT / ".build" / "test-times.tsv"
    times = read_times(COMMITTED_TIMES)
    times.update(read_times(local_times))
    lanes = max(1, min(args.lanes, len(specs)))
    dealt, loads = deal(specs, times, lanes)
    log_dir = ROOT / ".build" / "test-lanes"
    log_dir.mkdir(parents=True, exist_ok=True)
    print(f"tests: {len(specs)} in {lanes} lanes (expected "
          + ", ".join(f"{l:.0f} s" for l in loads) + f"); logs in {log_dir.relative_to(ROOT)}/", flush=True)

    busy = None
    if args.load:
        busy = subprocess.Popen(["bash", "-c", "while :; do :; done"], start_new_session=True)
        print(f"tests: a busy loop on one core beside the suite (pid {busy.pid})", flush=True)
    started = time.monotonic()
    workers = [Lane(i, args.bundle, d, args, log_dir) for i, d in enumerate(dealt)]
    try:
        for w in workers:
            w.start()
        pending = set(workers)
        while pending:
            for w in list(pending):
                w.join(timeout=0.5)
                if not w.is_alive():
                    pending.discard(w)
                    n_failed = sum(1 for s, _ in w.results.values() if s == "failed")
                    print(f"tests: lane {w.number} done after {time.monotonic() - started:.0f} s "
                          f"({len(w.results)} tests, {n_failed} failed, {w.processes} process(es))", flush=True)
    finally:
        if busy:
            os.killpg(busy.pid, signal.SIGKILL)
    wall = time.monotonic() - started

    results, messages = {}, {}
    for w in workers:
        results.update(w.results)
        messages.update(w.messages)
    wanted = {short_name(s): s for s in specs}
    missing = [n for n in wanted if n not in results]
    passed = [n for n, (s, _) in results.items() if s == "passed"]
    failed = [n for n, (s, _) in results.items() if s == "failed"] + missing
    skipped = [n for n, (s, _) in results.items() if s == "skipped"]

    new_times = dict(times)
    for n, (s, secs) in results.items():
        if n in wanted and s != "failed":
            new_times[wanted[n]] = secs
    text = "".join(f"{k}\t{v:.2f}\n" for k, v in sorted(new_times.items()))
    local_times.write_text(text)
    if args.save_times:
        COMMITTED_TIMES.write_text(text)

    if failed:
        print("\nFailures:")
        for n in sorted(failed):
            print(f"- {wanted.get(n, n)}")
            for m in messages.get(n, ["(no message: it never reported a result)"])[:30]:
                print(f"    {m}")
    print("\nThe ten slowest tests:")
    for n, (s, secs) in sorted(results.items(), key=lambda kv: -kv[1][1])[:10]:
        print(f"  {secs:7.1f} s  {wanted.get(n, n)}{'' if s == 'passed' else '  (' + s + ')'}")
    test_seconds = sum(secs for _, secs in results.values())
    print(f"\ntests: {test_seconds:.0f} s of test time in {wall:.0f} s ({lanes} lanes{', beside a busy core' if args.load else ''})")
    if failed:
        # Last, one line each: what a CI page that keeps only the output's tail still shows.
        print("tests: failed:")
        for n in sorted(failed):
            first = next(iter(messages.get(n, [])), "(no message)")
            print(f"  {wanted.get(n, n)}: {first[:400]}")
    print(f"tests: {len(passed)} passed, {len(failed)} failed, {len(skipped)} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
