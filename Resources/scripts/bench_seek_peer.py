#!/usr/bin/python3
"""Seek latency of raw playbin3, measured the way ReelBench measures Reel's Player.

From gst_element_seek_simple() to the pipeline's ASYNC_DONE, i.e. until the first frame at
the new position has prerolled in the video sink; the landing is checked against the sink's
last sample (playbin3's `sample` property). Same sinks as ReelBench: fakesink sync=true.

  bench_seek_peer.py FILE --mode keyframe|accurate --state paused|playing --targets 1.5,20.2
Prints one JSON object on stdout. Needs python3-gi and python3-gst-1.0 (setup.sh).
"""
import argparse
import json
import os
import sys
import time

import gi
gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402


def wait(bus, types, timeout_s):
    msg = bus.timed_pop_filtered(int(timeout_s * Gst.SECOND), types | Gst.MessageType.ERROR)
    if msg is None:
        raise SystemExit(json.dumps({"status": "error", "error": "timeout"}))
    if msg.type == Gst.MessageType.ERROR:
        err, _ = msg.parse_error()
        raise SystemExit(json.dumps({"status": "error", "error": err.message}))
    return msg


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--mode", default="accurate", choices=["keyframe", "accurate"])
    ap.add_argument("--state", default="paused", choices=["paused", "playing"])
    ap.add_argument("--targets", required=True)
    ap.add_argument("--keyframe-interval", type=float, default=1.0)
    a = ap.parse_args()
    targets = [float(t) for t in a.targets.split(",") if t]

    Gst.init(None)
    playbin = Gst.ElementFactory.make("playbin3", None)
    for prop in ("video-sink", "audio-sink"):
        sink = Gst.ElementFactory.make("fakesink", None)
        sink.set_property("sync", True)
        playbin.set_property(prop, sink)
    playbin.set_property("uri", Gst.filename_to_uri(os.path.abspath(a.file)))
    bus = playbin.get_bus()
    playbin.set_state(Gst.State.PAUSED)
    wait(bus, Gst.MessageType.ASYNC_DONE, 20)
    if a.state == "playing":
        playbin.set_state(Gst.State.PLAYING)
        while True:
            m = wait(bus, Gst.MessageType.STATE_CHANGED, 20)
            if m.src == playbin and m.parse_state_changed()[1] == Gst.State.PLAYING:
                break

    flags = Gst.SeekFlags.FLUSH
    flags |= Gst.SeekFlags.ACCURATE if a.mode == "accurate" else (Gst.SeekFlags.KEY_UNIT | Gst.SeekFlags.SNAP_BEFORE)
    samples, landed, misses = [], [], 0
    for target in targets:
        bus.set_flushing(True)   # drop what earlier playback posted
        bus.set_flushing(False)
        start = time.perf_counter()
        if not playbin.seek_simple(Gst.Format.TIME, flags, int(target * Gst.SECOND)):
            raise SystemExit(json.dumps({"status": "error", "error": "seek refused"}))
        wait(bus, Gst.MessageType.ASYNC_DONE, 10)
        elapsed = (time.perf_counter() - start) * 1000
        sample = playbin.get_property("sample")
        pts = None
        if sample is not None and sample.get_buffer() is not None and sample.get_buffer().pts != Gst.CLOCK_TIME_NONE:
            pts = sample.get_buffer().pts / Gst.SECOND
        ok = pts is not None and (abs(pts - target) <= 0.034 if a.mode == "accurate"
                                  else pts <= target + 0.001 and target - pts <= a.keyframe_interval + 0.001)
        if ok:   # only verified landings count, as in ReelBench
            samples.append(elapsed)
        else:
            misses += 1
        landed.append(pts)
        if a.state == "playing":
            time.sleep(0.05)
    playbin.set_state(Gst.State.NULL)
    print(json.dumps({"status": "ok", "player": "playbin3", "mode": a.mode, "state": a.state,
                      "samples_ms": samples, "misses": misses, "landed": landed}))
    return 0 if misses == 0 else 3


if __name__ == "__main__":
    sys.exit(main())
