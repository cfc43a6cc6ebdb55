#!/usr/bin/python3
"""Turns bench.sh's raw samples (JSON lines) into the table and the JSON report.

Every figure is a median over runs with its min and max; ratios are Reel's median over the
peer's median (below 1: Reel is faster / lighter). Nothing here is measured: it only summarises.
"""
import argparse
import json
import statistics
import sys

CLIP_STARTUP = 2.0      # clip2s.mp4, nominally (bench.sh records its real length)
GAPLESS_ITEMS = 20      # gapless-00..19.mp4, 1 s each nominally
HLS_CONTENT = 10.0      # bench-hls: 10 s
DASH_CONTENT = 8.0      # dash/ffmpeg: 8 s


def stats(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "n": len(values)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", required=True)
    ap.add_argument("--machine", required=True)
    ap.add_argument("--json", required=True)
    ap.add_argument("--table", required=True)
    a = ap.parse_args()
    rows, bad = [], []
    for l in open(a.samples):
        if l.strip():
            try:
                rows.append(json.loads(l))
            except ValueError as e:
                bad.append({"bench": "samples", "error": f"{e}", "line": l.strip()[:2000]})
                print(f"bench_report: unreadable sample line ({e}): {l.strip()[:400]}", file=sys.stderr)
    machine = json.loads(a.machine)

    # The media's real lengths (bench.sh, from gst-discoverer-1.0): what playing it takes anyway.
    media = {r["file"]: r["duration_s"] for r in rows if r.get("bench") == "media"}
    rows = [r for r in rows if r.get("bench") != "media"]
    clip_length = media.get("clip2s.mp4", CLIP_STARTUP)
    gapless_names = [f"gapless-{i:02d}.mp4" for i in range(GAPLESS_ITEMS)]
    gapless_length = sum(media[n] for n in gapless_names) if all(n in media for n in gapless_names) else float(GAPLESS_ITEMS)
    report_media = {"clip2s.mp4": clip_length, "gapless-00..19.mp4": gapless_length}

    players = []
    for r in rows:
        if r["player"] not in players and "pending" not in r:
            players.append(r["player"])

    def runs(bench, variant, player):
        return [r for r in rows if r["bench"] == bench and r["variant"] == variant and r["player"] == player and "pending" not in r]

    def ok(rs):
        return [r for r in rs if r.get("exit", 0) == 0]

    report = {"machine": machine, "media_s": report_media, "figures": [], "pending": [r for r in rows if "pending" in r], "failures": list(bad)}

    def add(metric, unit, variant, per_player, note=""):
        fig = {"metric": metric, "unit": unit, "variant": variant, "note": note, "players": per_player}
        ref = per_player.get("reel")
        fig["ratios"] = {}
        for p, s in per_player.items():
            if p != "reel" and ref and s and s["median"]:
                fig["ratios"][p] = ref["median"] / s["median"]
        report["figures"].append(fig)

    for r in rows:
        if r.get("exit", 0) != 0:
            report["failures"].append(r)

    # Startup overhead: wall - the clip's length (2.023 s: "2 s" plus its AAC priming).
    startup_median = {}
    for variant in ("fakesink", "x11"):
        per = {}
        for p in players:
            s = stats([r["wall_s"] - clip_length for r in ok(runs("startup", variant, p))])
            if s:
                per[p] = s
                if variant == "fakesink":
                    startup_median[p] = s["median"]
        if per:
            add("startup overhead (2 s clip, wall - its length)", "s", variant, per, f"clip {clip_length:.3f} s")

    # Reel's window start-up, milestone by milestone (REEL_STARTUP_TRACE): ms from just before exec.
    traces = [r["marks"] for r in rows if r["bench"] == "startup-trace" and r.get("marks")]
    if traces:
        names = []
        for t in traces:
            for n in t:
                if n not in names:
                    names.append(n)
        report["startup_breakdown"] = {n: stats([t[n] for t in traces if n in t]) for n in names}

    # CPU seconds and peak RSS, 10 s 1080p in a window.
    for variant in ("ximagesink", "xvimagesink"):
        cpu, rss = {}, {}
        for p in players:
            rs = ok(runs("cpu", variant, p))
            if rs:
                cpu[p] = stats([r["cpu_s"] for r in rs])
                rss[p] = stats([r["rss_kb"] / 1024 for r in rs])
        if cpu:
            window = "reel: own window" if machine.get("reel_window") else "reel: same X sink"
            add("CPU seconds, 10 s 1080p", "s", variant, cpu, window)
            add("peak RSS, 10 s 1080p", "MB", variant, rss, window)

    # The same on a Wayland compositor (weston headless, pixman): each player in its window.
    cpu, rss = {}, {}
    for p in players:
        rs = ok(runs("wayland", "window", p))
        if rs:
            cpu[p] = stats([r["cpu_s"] for r in rs])
            rss[p] = stats([r["rss_kb"] / 1024 for r in rs])
    if cpu:
        add("CPU seconds, 10 s 1080p on Wayland (weston, pixman)", "s", "wayland", cpu, "reel: waylandsink in its window")
        add("peak RSS, 10 s 1080p on Wayland (weston, pixman)", "MB", "wayland", rss, "reel: waylandsink in its window")

    # Extra wall time per transition over twenty 1 s clips.
    per = {}
    for p in players:
        base = startup_median.get(p, 0.0)
        s = stats([(r["wall_s"] - gapless_length - base) / (GAPLESS_ITEMS - 1) * 1000 for r in ok(runs("gapless", "fakesink", p))])
        if s:
            per[p] = s
    if per:
        add("extra wall time per transition (20 x 1 s)", "ms", "fakesink", per,
            (f"media {gapless_length:.3f} s and startup subtracted" if startup_median else "includes startup (run startup too)"))

    # The same switches at the video sink: the picture's gap at each item change less one frame
    # (bench_transitions.py), pooled over the runs' 19 transitions each.
    per = {}
    for p in players:
        s = stats([x for r in ok(runs("transition-sink", "fakesink", p)) for x in r.get("extra_ms", [])])
        if s:
            per[p] = s
    if per:
        add("picture held at each transition, beyond one frame (20 x 1 s)", "ms", "at the sink", per,
            "each clip's audio outlasts its video by 23 ms: a gapless switch in A/V sync holds the last frame that long")

    # Exact seeks while playing, over each player's socket, to its playback-restart (pooled).
    per = {}
    for p in players:
        s = stats([x for r in ok(runs("seek-socket", "accurate-playing", p)) for x in r.get("samples_ms", [])])
        if s:
            per[p] = s
    if per:
        misses = sum(r.get("misses", 0) for r in rows if r["bench"] == "seek-socket")
        add("exact seek while playing, socket command to playback-restart", "ms", "window", per,
            f"long60s.mp4 in each player's window; {misses} landings missed")

    # Seek latency, pooled over processes.
    variants = []
    for r in rows:
        if r["bench"] == "seek" and r["variant"] not in variants:
            variants.append(r["variant"])
    for variant in variants:
        per, notes = {}, []
        for p in ("reel", "playbin3"):
            samples, misses = [], 0
            for r in runs("seek", variant, p):
                res = r["result"]
                if res.get("status") != "ok":
                    report["failures"].append(r)
                    continue
                samples += res["samples_ms"]
                misses += res["misses"]
            s = stats(samples)
            if s:
                s["misses"] = misses
                per[p] = s
                if misses:
                    notes.append(f"{p}: {misses} landings off target")
        if per:
            mode, state = variant.split("-")
            add(f"seek latency, {mode}, while {state}", "ms", variant, per, "; ".join(notes))

    # reel check: wall time over the media time of the 20-item playlist (20 x 1 s).
    check = stats([r["wall_s"] / 20.0 for r in ok(runs("check", "twenty", "reel"))])
    if check:
        add("reel check, 20-item playlist, wall / media time (20 s)", "x", "twenty", {"reel": check},
            "probe, first frame, 3 captures and a full decode per item; real-time playback is about 1")
    check3 = stats([r["wall_s"] / 180.0 for r in ok(runs("check", "renditions", "reel"))])
    if check3:
        add("reel check --renditions all, 3 x 60 s HLS, wall / media time (180 s)", "x", "renditions", {"reel": check3},
            "every rendition probed, photographed, decoded to the end, its segments measured")

    # HLS VOD direct: wall over content time.
    per = {}
    for p in players:
        s = stats([r["wall_s"] / HLS_CONTENT for r in ok(runs("hls", "direct", p))])
        if s:
            per[p] = s
    if per:
        add("HLS VOD direct, wall / content time (10 s)", "x", "direct", per)
    gw = stats([r["wall_s"] / HLS_CONTENT for r in ok(runs("hls", "gateway", "reel"))])
    if gw:
        direct = per.get("reel")
        note = f"reel direct {direct['median']:.3f}; via gateway / direct {gw['median'] / direct['median']:.2f}" if direct else ""
        add("HLS VOD via Reel's gateway, wall / content (10 s)", "x", "gateway", {"reel": gw}, note)

    # DASH VOD (issue 31): wall over content time, Reel (through its gateway) beside its peers.
    per = {}
    for p in players:
        s = stats([r["wall_s"] / DASH_CONTENT for r in ok(runs("dash", "vod", p))])
        if s:
            per[p] = s
    if per:
        add("DASH VOD (ffmpeg's muxer), wall / content time (8 s)", "x", "vod", per)

    # The gateway alone (reel bench-gateway): latency and throughput, through it against direct.
    gw_runs = [r["result"] for r in rows if r["bench"] == "gateway"]
    for r in rows:
        if r["bench"] == "gateway" and r["result"].get("benchmark") != "gateway":
            report["failures"].append(r)
    gw_runs = [g for g in gw_runs if g.get("benchmark") == "gateway"]
    if gw_runs:
        for key, metric, unit in (("median_ms", "gateway request latency, 1 KiB, median", "ms"),
                                  ("p95_ms", "gateway request latency, 1 KiB, p95", "ms"),
                                  ("mib_per_s", f"gateway throughput, {gw_runs[0]['large_bytes'] >> 20} MiB bodies", "MiB/s")):
            through = stats([g["gateway"][key] for g in gw_runs])
            direct = stats([g["direct"][key] for g in gw_runs])
            add(metric, unit, "loopback", {"reel": through},
                f"direct {direct['median']:.{3 if unit == 'ms' else 0}f}; gateway / direct {through['median'] / direct['median']:.2f}")

    # The gateway's registry: milliseconds to rewrite (register) N segments; live table size.
    reg = [r["result"] for r in rows if r["bench"] == "registry"]
    for r in rows:
        if r["bench"] == "registry" and "vod" not in r["result"]:
            report["failures"].append(r)
    reg = [g for g in reg if "vod" in g]
    if reg:
        for i, row in enumerate(reg[0]["vod"]):
            ms = stats([g["vod"][i]["ms"] for g in reg if len(g["vod"]) > i])
            add(f"gateway registry: rewrite a {row['segments']:,}-segment playlist", "ms", "registry", {"reel": ms},
                f"{ms['median'] * 1000 / row['segments']:.2f} µs per segment; table {row['resources']:,}")
        add("gateway registry: live refresh, 6 signed URLs", "ms", "registry",
            {"reel": stats([g["liveMsPerRefresh"] for g in reg])},
            f"after {reg[0]['liveRefreshes']:,} refreshes the table holds {max(g['liveResources'] for g in reg)} URLs (bounded)")

    # Live lanes (bench_live.py on HLS, bench_live_dash.py on DASH): time to the first frame and
    # that frame's distance from the edge, by the server's log, with Reel's own figure beside.
    def live_lane(bench, variant, first_frame, distance, start_rule):
        live = {}
        for r in rows:
            if r["bench"] != bench:
                continue
            if r.get("status") == "ok":
                live.setdefault(r["player"], []).append(r)
            else:
                report["failures"].append(r)
        if not live:
            return
        add(first_frame, "s", variant, {p: stats([r["ttff_s"] for r in rs]) for p, rs in live.items()})
        per = {p: stats([r["behind_s"] for r in rs if r.get("behind_s") is not None]) for p, rs in live.items()}
        said = stats([r["reel_says_behind_s"] for r in live.get("reel", []) if r.get("reel_says_behind_s") is not None])
        add(distance, "s", variant, {p: v for p, v in per.items() if v},
            f"Reel's own live event says {said['median']:.1f} s; {start_rule}" if said else "")

    live_lane("live", "sliding-12s", "live HLS, time to first frame (12 s window, 2 s segments)",
              "live HLS, first frame's distance from the live edge", "safe distance (3 target durations) 6 s")
    live_lane("live-dash", "ffmpeg-12s", "live DASH (ffmpeg, 12 s window, 2 s segments), time to first frame",
              "live DASH, first frame's distance from the live edge", "its start distance: suggestedPresentationDelay, at least 3 segments (6 s)")

    # Quality of experience on adaptive HLS (bench_quality.py): per trace, each figure per player.
    for trace in [s + t for s in ("", "ffmpeg-abr/") for t in ("steady", "step-down", "oscillating")]:
        stream = "hls/ffmpeg-abr" if trace.startswith("ffmpeg-abr/") else "hls/abr"
        qruns = {}
        for p in players:
            rs = []
            for r in runs("quality", trace, p):
                if r["result"].get("status") == "ok":
                    rs.append(r["result"])
                else:
                    report["failures"].append(r)
            if rs:
                qruns[p] = rs
        if not qruns:
            continue
        for key, metric, unit in (("stall_s", "stall seconds", "s"), ("stalls", "stalls", "n"),
                                  ("mean_kbps", "mean played bitrate", "kbit/s"), ("switches", "rendition switches", "n"),
                                  ("ttff_s", "time to first frame", "s")):
            per = {p: stats([float(r[key]) for r in rs if r.get(key) is not None]) for p, rs in qruns.items()}
            per = {p: v for p, v in per.items() if v}
            note = ""
            if key == "mean_kbps":
                def share(field):
                    return {p: stats([r[field] for r in rs if r.get(field)]) for p, rs in qruns.items()}
                allowed, link, best = share("allowed_kbps"), share("link_kbps"), share("oracle_kbps")
                def pct(p, of):
                    return f"{per[p]['median'] / of[p]['median'] * 100:.0f}%" if of.get(p) and of[p]["median"] else "-"
                note = "; ".join(f"{p}: {pct(p, link)} of what the link carries, {pct(p, best)} of a clairvoyant player's, "
                                 f"{pct(p, allowed)} of every bit carried" for p in per)
            add(f"ABR {metric}, {stream} 45 s", unit, trace, per, note)

    # Playlist throughput.
    for r in rows:
        if r["bench"] == "playlist":
            res = r["result"]
            for part in ("parse", "rewrite"):
                sub = res.get(part, {})
                if sub.get("status") == "ok":
                    mbps = [res["bytes"] / 1e6 / t for t in sub["seconds"]]
                    add(f"M3U8 {part} throughput ({res['segments']} segments, {res['bytes'] / 1e6:.1f} MB)", "MB/s",
                        "m3u8-100k", {"reel": stats(mbps)})
                else:
                    report["failures"].append({"bench": "playlist", "variant": part,
                                               "error": sub.get("reason") or sub.get("error") or res.get("error", "no result")})
            for fmt_name, sub in res.get("lists", {}).items():
                inner = sub.get("result", {})
                if inner.get("status") == "ok":
                    mbps = [sub["bytes"] / 1e6 / t for t in inner["seconds"]]
                    add(f"{fmt_name.upper()} queue playlist parse ({sub['entries']} entries, {sub['bytes'] / 1e6:.1f} MB)", "MB/s",
                        fmt_name, {"reel": stats(mbps)})
                else:
                    report["failures"].append({"bench": "playlist", "variant": fmt_name, "error": inner.get("error", "no result")})

    # Subtitle parse throughput (films and hostile shapes).
    for r in rows:
        if r["bench"] == "subtitles":
            for lane, sub in r["result"].get("files", {}).items():
                inner = sub.get("result", {})
                if inner.get("status") == "ok":
                    mbps = [sub["bytes"] / 1e6 / t for t in inner["seconds"] if t > 0]
                    add(f"subtitle parse, {lane} ({sub['bytes'] / 1e6:.2f} MB, {inner.get('result')} cues)", "MB/s", lane, {"reel": stats(mbps)})
                else:
                    report["failures"].append({"bench": "subtitles", "variant": lane, "error": inner.get("error", "no result")})

    json.dump(report, open(a.json, "w"), indent=1)

    # The table.
    peers = [p for p in players if p != "reel"]
    cols = ["reel"] + peers
    lines = []
    m = machine
    lines.append(f"Reel benchmarks — {m['date']} — {m.get('cpu')} ({m.get('cores')} cores, {m.get('mem_gb')} GB), "
                 f"{m.get('kernel')}, {m.get('gstreamer')}, reel {m.get('reel_commit')} ({m.get('reel_config')})")
    lines.append("median [min–max] over runs; ratio = reel median / peer median (below 1: reel is better)")
    lines.append("")
    header = f"{'metric':<48} {'variant':<19}" + "".join(f" {c:>24}" for c in cols) + "".join(f" {'reel/' + p:>16}" for p in peers)
    lines.append(header)
    lines.append("-" * len(header))

    def fmt(s, unit):
        if not s:
            return "—"
        prec = 3 if unit in ("s", "x") or (unit == "ms" and s["median"] < 1) else 1
        return f"{s['median']:.{prec}f} [{s['min']:.{prec}f}–{s['max']:.{prec}f}]"

    for f in report["figures"]:
        line = f"{f['metric'] + ' (' + f['unit'] + ')':<48} {f['variant']:<19}"
        line += "".join(f" {fmt(f['players'].get(c), f['unit']):>24}" for c in cols)
        line += "".join(f" {('%.2f' % f['ratios'][p]) if p in f['ratios'] else '—':>16}" for p in peers)
        if f["note"]:
            line += f"  ({f['note']})"
        lines.append(line)
    if report.get("startup_breakdown"):
        lines.append("")
        lines.append("Reel's window start-up, ms from exec (median [min–max]; REEL_STARTUP_TRACE):")
        previous = 0.0
        for name, s in report["startup_breakdown"].items():
            if s:
                lines.append(f"  {name:<14} {fmt(s, 'ms'):>24}   +{s['median'] - previous:.1f}")
                previous = s["median"]
    if report["pending"]:
        lines.append("")
        for p in report["pending"]:
            lines.append(f"pending: {p['bench']}/{p['variant']}: {p['pending']}")
    if report["failures"]:
        lines.append("")
        lines.append(f"FAILED RUNS: {len(report['failures'])} (excluded from the figures; see the JSON)")
    if not m.get("mpv"):
        lines.append("mpv: not installed (detected at run time; it joins the table when present)")
    if not m.get("cvlc"):
        lines.append("cvlc: not installed (detected at run time; it joins the table when present)")
    text = "\n".join(lines) + "\n"
    open(a.table, "w").write(text)
    print(text, end="")


if __name__ == "__main__":
    main()
