#!/usr/bin/env python3
"""Writes the file map of docs/ARCHITECTURE.md (between its `files:begin`/`files:end` markers):
every source folder with what it holds and every file in it. `make docs` runs it; the test
ArchitectureMapTests fails when a source file is missing from the map, or the map is over 40 KB.

    architecture-map.py [--check]     --check: exit 1 when the document is not what it would write
"""
import os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOC = os.path.join(ROOT, "docs", "ARCHITECTURE.md")

# One line per folder: what it holds. A folder not listed here is shown with "(undescribed)",
# which the test refuses.
FOLDERS = {
    "CGStreamer": "the GStreamer shim: static inline wrappers for macros, variadic calls and typed signals",
    "CGtk": "the GTK 3 shim",
    "Sources/CGLib": "GLib only: the main loop's C side",
    "Sources/CGio": "GIO only: D-Bus, the network monitor, GIO's defaults made early",
    "Sources/CReelFrame": "C on GStreamer objects: the window gate, the MPD typefinder, the content guard, frame PNGs, the stream log, the frame catcher",
    "Sources/CReelFrame/include": "its headers",
    "Sources/ReelApp": "the app's entry (`ReelApp.main`)",
    "Sources/ReelApp/Check": "`reel check`: runner, stream checks, goldens, the live watch",
    "Sources/ReelApp/Review": "`reel review`: the review component (verdicts, marks, background checks, report)",
    "Sources/ReelApp/Commands": "the command line: `reel`, its options (and reel.conf), `check`, `inspect`",
    "Sources/ReelApp/Files": "state files: resume positions, throughput, playlists read, the ABR trace",
    "Sources/ReelApp/RemoteControl": "the control socket and the one command target (`QueueCommandTarget`)",
    "Sources/ReelApp/Routing": "which items go through the gateway, with which credentials",
    "Sources/ReelApp/Session": "`SessionCore` and its two front ends, intake, input.conf, stats, how the process ends",
    "Sources/ReelBench": "`make bench`'s harness",
    "Sources/ReelCore/Credentials": "headers, scopes, origins, tokens, `CredentialPolicy`, redaction",
    "Sources/ReelCore/DASH": "the MPD rewriter, inspection, segment lists, the live window and clock, bounded numbers",
    "Sources/ReelCore/Decoding": "`--hwdec`'s rank rule",
    "Sources/ReelCore/Events": "the event type, its wire format, deduplication, end reasons, the title's rate limit",
    "Sources/ReelCore/HLS": "the HLS parser, rewriter, master filter, audits",
    "Sources/ReelCore/IPC": "the socket's requests, mpv's text form, input.conf's bindings, the registry of commands and properties, dispatch",
    "Sources/ReelCore/Properties": "the property model: a property's kind and declaration, the table and its verbs, the session's own properties",
    "Sources/ReelCore/Live": "live modes and programmes, the playlist editor, timeline, window cap, `LiveStream`",
    "Sources/ReelCore/Media": "chapters and their arithmetic",
    "Sources/ReelCore/Network": "network state, metered policy, `NetworkRule`, `NetworkGate`",
    "Sources/ReelCore/Playback": "state types, errors, the snapshot, the command target, A-B loop, picture, geometry",
    "Sources/ReelCore/Playlists": "M3U, PLS, XSPF, the writer, a folder's media files and a file's siblings",
    "Sources/ReelCore/Policies": "buffering, retry, early end, the one error mapper",
    "Sources/ReelCore/Quality": "choices, renditions, the adaptive rule, `QualityController`",
    "Sources/ReelCore/Queue": "the queue and its items",
    "Sources/ReelCore/Queue/Sequencer": "the queue sequencer, its gapless advisor and retry scheduler",
    "Sources/ReelCore/Recording": "a session recording's format, which recorded answer a replay gives, the faults file, the summary (`--record`, `--replay`)",
    "Sources/ReelCore/Reports": "`reel check`'s reports, QoE, stats",
    "Sources/ReelCore/Reports/Scenario": "`reel check --scenario`'s line syntax and expectations (run by ReelApp/Check/ScenarioRunner)",
    "Sources/ReelCore/Review": "`reel review`'s verdicts and marks (review.json) and the two-reviewer merge",
    "Sources/ReelCore/Config": "reel.conf edited as a person would (the preferences window's writes)",
    "Sources/ReelCore/Resume": "resume keys, rule and book",
    "Sources/ReelCore/Subtitles": "SRT, ASS, cue timing, placement, sidecar files",
    "Sources/ReelCore/Subtitles/WebVTT": "WebVTT by the spec",
    "Sources/ReelCore/Support": "the log, time, locators, bounded numbers, private files",
    "Sources/ReelCore/Tracks": "track choice by language",
    "Sources/ReelCore/Workarounds": "the decisions of the GStreamer 1.22 workarounds, pure",
    "Sources/ReelDesktop": "MPRIS, the screensaver, the network monitor, the session bus",
    "Sources/ReelEngine": "the engine over playbin3: filters, probes, the runtime, GStreamer debug categories",
    "Sources/ReelEngine/Features": "the player's features: hooks, registration, one component each",
    "Sources/ReelEngine/Preview": "seek-bar previews: a second, small pipeline and its bounded cache",
    "Sources/ReelEngine/Player": "`Player`: API, bus handlers, pipeline, seeking, frames, per-item state",
    "Sources/ReelEngine/Workarounds": "each GStreamer 1.22 workaround in its own file (registry: README.md)",
    "Sources/ReelGLib": "the one main-loop glue (`MainQueue`, `GLibMainLoop`)",
    "Sources/ReelGateway": "the loopback gateway for protected streams",
    "Sources/ReelGateway/Recording": "where upstream requests go: the network, recorded (`SessionRecorder`), or a recording replayed (`ReplayOrigin`)",
    "Sources/ReelGateway/Repairs": "the gateway's repairs of what it relays, one type each, in chains (`GatewayRepairs+Standard`)",
    "Sources/ReelUI": "the GTK window: renders a view state, emits actions; keys",
    "Sources/reel": "`main.swift`",
}

def source_folders():
    found = {}
    for top in ["CGStreamer", "CGtk", "Sources"]:
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            names = sorted(f for f in files if f.endswith((".swift", ".c", ".h")))
            if names:
                found[os.path.relpath(dirpath, ROOT)] = names
    return dict(sorted(found.items()))

def render():
    lines = ["| folder | what | files |", "|---|---|---|"]
    for folder, names in source_folders().items():
        shown = ", ".join(n[:-6] if n.endswith(".swift") else n for n in names)
        lines.append(f"| `{folder}/` | {FOLDERS.get(folder, '(undescribed)')} | {shown} |")
    return "\n".join(lines)

def main():
    text = open(DOC, encoding="utf-8").read()
    begin, end = "<!-- files:begin (architecture-map.py) -->", "<!-- files:end -->"
    if begin not in text or end not in text:
        sys.exit(f"{DOC}: no {begin} … {end} block")
    new = text[:text.index(begin) + len(begin)] + "\n" + render() + "\n" + text[text.index(end):]
    if "--check" in sys.argv:
        sys.exit(0 if new == text else 1)
    if new != text:
        open(DOC, "w", encoding="utf-8").write(new)
    print("docs/ARCHITECTURE.md: file map written")

main()
