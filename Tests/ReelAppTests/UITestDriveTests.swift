import Foundation
import ReelCore
import ReelTestSupport
import XCTest

/// Issue 59: what a screenshot-based UI test does to the window, through the socket, the same on
/// X11 (Xvfb) and Wayland (weston headless, no Xwayland): `keypress` takes a key's road (the
/// bindings, the window), `window-tree` gives each widget's role, name, state and rectangle (as
/// AT-SPI reads them), `mouse` clicks where the tree says, and `--geometry` makes the first
/// picture the same whatever an earlier run saved.
final class UITestDriveTests: XCTestCase {
    enum Display { case xvfb, weston, westonWithoutSeat }

    private final class Run {
        let reel: BackgroundProcess
        let client: IPCTestClient
        private var id = 0
        let weston: WestonSession?

        init(_ display: Display, arguments: [String], state: String? = nil, media: [String] = [TestMedia.path("color10s.mp4")]) throws {
            // weston's x11 backend: a real compositor with a seat (its headless backend has no
            // pointer, where GTK can take no click: `mouse` says so), and no Xwayland.
            weston = switch display {
            case .xvfb: nil
            case .weston: try WestonSession(xwayland: false, width: 1200, height: 750, backend: .x11)
            case .westonWithoutSeat: try WestonSession(xwayland: false)
            }
            let dir = TestMedia.temporaryDirectory("reel-uitest")
            let socket = dir.appendingPathComponent("ui.sock").path
            var environment = weston?.environment ?? [:]
            environment["GTK_CSD"] = "0"
            if let state { environment["XDG_STATE_HOME"] = state }
            reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--no-mpris", "--no-resume", "--autoload=no", "--audio-sink", "fakesink sync=true",
                                                                        "--ipc", socket] + arguments + media, environment: environment)
            guard let client = IPCTestClient(path: socket, timeout: 20) else {
                let err = reel.stderr
                _ = reel.finish(timeout: 5)
                weston?.stop()
                throw NSError(domain: "UITestDrive", code: 1, userInfo: [NSLocalizedDescriptionKey: "no control socket: \(err)"])
            }
            self.client = client
        }

        @discardableResult
        func ask(_ command: [Any]) -> [String: Any] {
            id += 1
            return client.request(command, id: id) ?? ["error": "no reply"]
        }

        func get(_ name: String) -> Any? { ask(["get_property", name])["data"] }

        /// The widgets of the window titled like the player's (`main`) or another (a dialog).
        func widgets(main: Bool = true) -> [[String: Any]] {
            let windows = ask(["window-tree"])["data"] as? [[String: Any]] ?? []
            return windows.first { $0["main"] as? Bool == main }?["widgets"] as? [[String: Any]] ?? []
        }

        func widget(named name: String, main: Bool = true) -> [String: Any]? { widgets(main: main).first { $0["name"] as? String == name } }

        func wait(_ timeout: Double = 10, _ condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while !condition() {
                if Date() > deadline { return false }
                usleep(100_000)
            }
            return true
        }

        func finish() -> Int32 {
            _ = ask(["quit"])
            let status = reel.finish(timeout: 15).status
            weston?.stop()
            return status
        }
    }

    func testKeysTheTreeAndTheMouseOnXvfb() throws { try keysTheTreeAndTheMouse(.xvfb) }
    func testKeysTheTreeAndTheMouseOnWeston() throws { try keysTheTreeAndTheMouse(.weston) }

    private func keysTheTreeAndTheMouse(_ display: Display) throws {
        let run = try Run(display, arguments: ["--pause", "--geometry", "800x450"])
        defer { if run.reel.process.isRunning { _ = run.reel.finish(timeout: 2); run.weston?.stop() } }
        XCTAssertTrue(run.wait(20) { (run.get("duration") as? Double ?? 0) > 9 }, "loaded: \(run.reel.stderr.suffix(400))")
        // keypress m: muted, and the mute button's accessible name says the other way now.
        XCTAssertNotNil(run.widget(named: "Mute"), "\(run.widgets().compactMap { $0["name"] })")
        XCTAssertEqual(run.ask(["keypress", "m"])["error"] as? String, "success")
        XCTAssertEqual(run.get("mute") as? Bool, true)
        XCTAssertTrue(run.wait { run.widget(named: "Unmute") != nil }, "the button says Unmute: \(run.widgets().compactMap { $0["name"] })")
        XCTAssertEqual(run.ask(["keypress", "m"])["error"] as? String, "success")
        XCTAssertEqual(run.get("mute") as? Bool, false)
        // The seek bar from the tree: a click at 75 % of its width seeks there (GTK's slider
        // warps to a primary click; its ends are the slider's half width in).
        let seek = try XCTUnwrap(run.widget(named: "Seek"), "\(run.widgets().compactMap { $0["name"] })")
        XCTAssertEqual(seek["role"] as? String, "slider")
        let (x, y, width, height) = (seek["x"] as? Int ?? 0, seek["y"] as? Int ?? 0, seek["width"] as? Int ?? 0, seek["height"] as? Int ?? 0)
        XCTAssertGreaterThan(width, 300)
        XCTAssertEqual(run.ask(["mouse", x + width * 3 / 4, y + height / 2, 0])["error"] as? String, "success")
        XCTAssertTrue(run.wait { abs((run.get("time-pos") as? Double ?? 0) - 7.5) < 0.6 }, "seeked to about 7.5 s: \(run.get("time-pos") ?? "nil")")
        XCTAssertEqual(run.ask(["mouse", 5000, 5000])["error"] as? String, "invalid-argument", "outside the window")
        // keypress Ctrl+o: the file dialog, a second window in the tree; Esc closes it.
        XCTAssertEqual(run.ask(["keypress", "Ctrl+o"])["error"] as? String, "success")
        XCTAssertTrue(run.wait { !run.widgets(main: false).isEmpty }, "the dialog is in the tree")
        let dialog = run.ask(["window-tree"])["data"] as? [[String: Any]] ?? []
        XCTAssertTrue(dialog.contains { $0["main"] as? Bool == false && ($0["title"] as? String ?? "").contains("Open") }, "\(dialog.map { $0["title"] ?? "" })")
        XCTAssertEqual(run.ask(["keypress", "ESC"])["error"] as? String, "success")
        XCTAssertTrue(run.wait { run.widgets(main: false).isEmpty }, "closed")
        XCTAssertEqual(run.ask(["keypress", "Hyper+q"])["error"] as? String, "invalid-argument")
        XCTAssertEqual(run.finish(), 0)
    }

    func testADragReordersThePlaylistPanelOnXvfb() throws { try dragReordersThePlaylist(.xvfb) }
    func testADragReordersThePlaylistPanelOnWeston() throws { try dragReordersThePlaylist(.weston) }

    /// F9 opens the panel; `window-tree` gives its rows (texts and rectangles); `mouse-drag` from
    /// the first row to the lower half of the third moves it there (the queue says so, and so does
    /// the panel's next tree), and the item playing goes on playing.
    private func dragReordersThePlaylist(_ display: Display) throws {
        let media = ["color10s.mp4", "clip2s.mp4", "landscape.mp4", "portrait.mp4"].map { TestMedia.path($0) }
        let run = try Run(display, arguments: ["--pause", "--geometry", "900x450"], media: media)
        defer { if run.reel.process.isRunning { _ = run.reel.finish(timeout: 2); run.weston?.stop() } }
        XCTAssertTrue(run.wait(20) { (run.get("duration") as? Double ?? 0) > 9 }, "loaded: \(run.reel.stderr.suffix(400))")
        XCTAssertEqual(run.ask(["keypress", "F9"])["error"] as? String, "success")
        func rows() -> [[String: Any]] { run.widget(named: "Playlist")?["rows"] as? [[String: Any]] ?? [] }
        func titles() -> [String] { rows().map { ($0["texts"] as? [String] ?? []).dropFirst().first ?? "" } }
        XCTAssertTrue(run.wait { rows().count == 4 }, "the panel's rows: \(run.widget(named: "Playlist") ?? [:])")
        XCTAssertEqual(titles(), ["color10s.mp4", "clip2s.mp4", "landscape.mp4", "portrait.mp4"])
        let all = rows()
        func centre(_ r: [String: Any], dy: Double = 0.5) -> (Int, Int) {
            ((r["x"] as? Int ?? 0) + 40, (r["y"] as? Int ?? 0) + Int(Double(r["height"] as? Int ?? 0) * dy))
        }
        let (x1, y1) = centre(all[0]), (x2, y2) = centre(all[2], dy: 0.8)
        XCTAssertEqual(run.ask(["mouse-drag", x1, y1, x2, y2])["error"] as? String, "success")
        func queue() -> [String] { (run.get("playlist") as? [[String: Any]] ?? []).compactMap { ($0["filename"] as? String).map { ($0 as NSString).lastPathComponent } } }
        XCTAssertTrue(run.wait { queue() == ["clip2s.mp4", "landscape.mp4", "color10s.mp4", "portrait.mp4"] }, "the queue after the drag: \(queue())")
        XCTAssertTrue(run.wait { titles() == ["clip2s.mp4", "landscape.mp4", "color10s.mp4", "portrait.mp4"] }, "the panel shows it: \(titles())")
        XCTAssertEqual(run.get("playlist-pos") as? Int, 2, "the playing item moved with its row")
        XCTAssertEqual((run.get("filename") as? String).map { ($0 as NSString).lastPathComponent }, "color10s.mp4")
        XCTAssertEqual(run.finish(), 0)
    }

    /// weston's headless backend has no seat: keys still come (GTK takes a key without a device),
    /// a click cannot be made and `mouse` says why instead of doing nothing.
    func testWithoutAPointerMouseSaysSoAndKeysStillWork() throws {
        let run = try Run(.westonWithoutSeat, arguments: ["--pause"])
        defer { if run.reel.process.isRunning { _ = run.reel.finish(timeout: 2); run.weston?.stop() } }
        XCTAssertTrue(run.wait(20) { (run.get("duration") as? Double ?? 0) > 9 })
        XCTAssertEqual(run.ask(["mouse", 10, 10, 0])["error"] as? String, "unavailable")
        XCTAssertEqual(run.ask(["keypress", "m"])["error"] as? String, "success")
        XCTAssertEqual(run.get("mute") as? Bool, true)
        XCTAssertEqual(run.finish(), 0)
    }

    /// `capture-mask`: window captures at two positions differ; with the video and the seek row
    /// masked (the video by its accessible name, the row by its rectangle from the tree) they are
    /// the same bytes.
    func testACaptureMaskLeavesOutWhatMovesByNameOrRectangle() throws {
        let run = try Run(.xvfb, arguments: ["--pause", "--geometry", "800x450"])
        defer { if run.reel.process.isRunning { _ = run.reel.finish(timeout: 2) } }
        XCTAssertTrue(run.wait(20) { (run.get("duration") as? Double ?? 0) > 9 })
        let dir = TestMedia.temporaryDirectory("reel-uitest-mask")
        defer { try? FileManager.default.removeItem(at: dir) }
        func capture(at position: Double, _ name: String) throws -> Data {
            XCTAssertEqual(run.ask(["seek", position, "absolute"])["error"] as? String, "success")
            XCTAssertTrue(run.wait { abs((run.get("time-pos") as? Double ?? -1) - position) < 0.05 && run.get("seeking") as? Bool == false })
            usleep(400_000)
            let path = dir.appendingPathComponent(name).path
            XCTAssertEqual(run.ask(["screenshot", path, "window"])["error"] as? String, "success")
            return try Data(contentsOf: URL(fileURLWithPath: path))
        }
        XCTAssertNotEqual(try capture(at: 2, "a.png"), try capture(at: 6, "b.png"), "the picture and the seek row moved")
        let seek = try XCTUnwrap(run.widget(named: "Seek"))
        let row = "0,\(seek["y"] as? Int ?? 0),800,\(seek["height"] as? Int ?? 0)"
        XCTAssertEqual(run.ask(["set_property", "capture-mask", ["Video", row]])["error"] as? String, "success")
        XCTAssertEqual(run.get("capture-mask") as? [String], ["Video", row])
        XCTAssertEqual(try capture(at: 2, "c.png"), try capture(at: 6, "d.png"), "what moves is masked")
        XCTAssertEqual(run.ask(["set_property", "capture-mask", ["1,2"]])["error"] as? String, "invalid-argument")
        XCTAssertEqual(run.ask(["set_property", "capture-mask", "Video"])["error"] as? String, "unsupported format for accessing property")
        XCTAssertEqual(run.finish(), 0)
    }

    /// `--dump-tree FILE`: the widget tree at the first frame (at `--start-time`), without a socket client.
    func testDumpTreeWritesTheTreeAtTheFirstFrame() throws {
        let dir = TestMedia.temporaryDirectory("reel-uitest-tree")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("tree.json")
        let run = try Run(.xvfb, arguments: ["--pause", "--start-time", "4", "--geometry", "800x450", "--dump-tree", file.path])
        defer { if run.reel.process.isRunning { _ = run.reel.finish(timeout: 2) } }
        XCTAssertTrue(run.wait(20) { FileManager.default.fileExists(atPath: file.path) }, run.reel.stderr)
        usleep(200_000)
        let windows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]])
        let widgets = windows.first?["widgets"] as? [[String: Any]] ?? []
        let seek = try XCTUnwrap(widgets.first { $0["name"] as? String == "Seek" }, "\(widgets.compactMap { $0["name"] })")
        XCTAssertEqual(seek["value"] as? Double ?? 0, 4, accuracy: 0.3, "at --start-time")
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
        XCTAssertEqual(run.finish(), 0)
    }

    func testGeometryGivesTheSameFirstPictureWhateverWasSavedOnXvfb() throws { try sameFirstPicture(.xvfb) }
    func testGeometryGivesTheSameFirstPictureWhateverWasSavedOnWeston() throws { try sameFirstPicture(.weston) }

    private func sameFirstPicture(_ display: Display) throws {
        var pictures: [Data] = []
        for saved in [(1200, 700), (640, 400)] {
            let state = TestMedia.temporaryDirectory("reel-uitest-state")
            defer { try? FileManager.default.removeItem(at: state) }
            try FileManager.default.createDirectory(at: state.appendingPathComponent("reel"), withIntermediateDirectories: true)
            try Data("{\"width\": \(saved.0), \"height\": \(saved.1)}\n".utf8).write(to: state.appendingPathComponent("reel/window.json"))
            let shot = state.appendingPathComponent("first.png").path
            // On weston's x11 backend the pointer is the X screen's: kept off its window, so that no
            // control is drawn hovered in one run and not in the other.
            if display == .weston { _ = ProcessRunner.run("/usr/bin/xdotool", ["mousemove", "1279", "799"], timeout: 10) }
            let run = try Run(display, arguments: ["--pause", "--geometry", "800x450", "--title", "UI test"], state: state.path)
            defer { if run.reel.process.isRunning { _ = run.reel.finish(timeout: 2); run.weston?.stop() } }
            XCTAssertTrue(run.wait(20) { (run.get("duration") as? Double ?? 0) > 9 && run.get("time-control") as? String == "paused" })
            // On Wayland the toplevel's own drawing (CSD: its shadow and title bar) is around the 800x450.
            XCTAssertTrue(run.wait { ((run.ask(["window-tree"])["data"] as? [[String: Any]])?.first?["width"] as? Int ?? 0) >= 800 })
            let tree = run.ask(["window-tree"])["data"] as? [[String: Any]] ?? []
            XCTAssertEqual(tree.first?["title"] as? String, "UI test", "--title")
            if display == .xvfb {
                XCTAssertEqual(tree.first?["width"] as? Int, 800)
                XCTAssertEqual(tree.first?["height"] as? Int, 450)
            }
            usleep(500_000)  // the paused frame drawn
            XCTAssertEqual(run.ask(["screenshot", shot, "window"])["error"] as? String, "success")
            pictures.append(try Data(contentsOf: URL(fileURLWithPath: shot)))
            XCTAssertEqual(run.finish(), 0)
            let kept = try String(contentsOf: state.appendingPathComponent("reel/window.json"), encoding: .utf8)
            XCTAssertTrue(kept.contains("\"width\": \(saved.0)"), "--geometry writes no state: \(kept)")
        }
        XCTAssertEqual(pictures.count, 2)
        // The same pixels (ImageMagick's count of differing pixels, from outside), and on X11 the
        // same bytes. (On Wayland the composed capture's PNG was seen to differ in its encoding
        // now and then with every pixel the same.)
        let dir = TestMedia.temporaryDirectory("reel-uitest-compare")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (a, b) = (dir.appendingPathComponent("a.png"), dir.appendingPathComponent("b.png"))
        try pictures[0].write(to: a)
        try pictures[1].write(to: b)
        let compare = ProcessRunner.run("/usr/bin/compare", ["-metric", "AE", a.path, b.path, "null:"], timeout: 30)
        XCTAssertEqual(compare.stderr.trimmingCharacters(in: .whitespacesAndNewlines), "0", "the same pixels in both first captures")
        if display == .xvfb { XCTAssertEqual(pictures.first, pictures.last, "byte-identical first captures") }
    }
}

/// `--clock-at` (issue 59): a live stream as ffmpeg's live HLS muxer writes it (PROGRAM-DATE-TIME
/// from the wall clock), played with the clock rebased: `epoch-time` and the window's time-of-day
/// labels read the given time plus the media played, not today's clock.
final class ClockAtTests: XCTestCase {
    /// ffmpeg's live HLS muxer (1 s segments, six in the playlist, PROGRAM-DATE-TIME from the wall
    /// clock) writing `input` in real time into `dir`, served at /live/live.m3u8 once the playlist
    /// holds `segments`.
    private func livePackager(in dir: URL, input: [String], segments: Int) throws -> (BackgroundProcess, HTTPFixtureServer) {
        let packager = try BackgroundProcess("/usr/bin/ffmpeg", ["-loglevel", "error", "-re"] + input
                                             + ["-f", "hls", "-hls_time", "1", "-hls_list_size", "6", "-hls_flags", "program_date_time+delete_segments",
                                                "-hls_segment_filename", dir.appendingPathComponent("seg%03d.ts").path, dir.appendingPathComponent("live.m3u8").path])
        let server = try HTTPFixtureServer()
        server.serveLiveDirectory(dir, at: "/live")
        let deadline = Date().addingTimeInterval(20)
        while (try? String(contentsOf: dir.appendingPathComponent("live.m3u8"), encoding: .utf8))?.components(separatedBy: "#EXTINF").count ?? 0 <= segments, Date() < deadline {
            usleep(200_000)
        }
        return (packager, server)
    }

    func testALiveStreamsClockIsTheOneGivenRunningAtTheMediasPace() throws {
        let dir = TestMedia.temporaryDirectory("reel-clock-at")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (packager, server) = try livePackager(in: dir, input: ["-stream_loop", "-1", "-i", TestMedia.path("color10s.mp4"), "-c", "copy"], segments: 3)
        defer { packager.process.terminate(); _ = packager.finish(timeout: 5, dumpStacks: false) }
        let base = ProgramDate.parse("2030-01-01T00:00:00Z")!.timeIntervalSince1970
        for clockAt in [true, false] {
            let socket = dir.appendingPathComponent("c\(clockAt).sock").path
            let reel = try BackgroundProcess(ProcessRunner.reelExecutable,
                                             ["--no-mpris", "--no-resume", "--audio-sink", "fakesink sync=true", "--geometry", "800x450", "--ipc", socket]
                                             + (clockAt ? ["--clock-at", "2030-01-01T00:00:00Z"] : []) + [server.url("/live/live.m3u8").absoluteString],
                                             environment: ["TZ": "UTC", "GTK_CSD": "0"])
            defer { if reel.process.isRunning { _ = reel.finish(timeout: 2) } }
            let c = try XCTUnwrap(IPCTestClient(path: socket, timeout: 20), reel.stderr)
            var id = 0
            func ask(_ command: [Any]) -> [String: Any] { id += 1; return c.request(command, id: id) ?? [:] }
            let until = Date().addingTimeInterval(20)
            var epoch: Double?
            while Date() < until {
                if let e = ask(["get_property", "epoch-time"])["data"] as? Double, (ask(["get_property", "time-control"])["data"] as? String) == "playing" { epoch = e; break }
                usleep(200_000)
            }
            let seen = try XCTUnwrap(epoch, "epoch-time while playing: \(reel.stderr.suffix(600))")
            if clockAt {
                XCTAssertTrue((base - 1)...(base + 15) ~= seen, "the given clock and the media played since: \(seen - base)")
                usleep(1_500_000)
                let later = ask(["get_property", "epoch-time"])["data"] as? Double ?? 0
                XCTAssertEqual(later - seen, 1.5, accuracy: 0.7, "it runs at the media's pace")
                let labels = ((ask(["window-tree"])["data"] as? [[String: Any]])?.first?["widgets"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
                XCTAssertTrue(labels.contains { $0.hasPrefix("00:00:") }, "the window's time of day is the given clock's: \(labels)")
            } else {
                XCTAssertEqual(seen, Date().timeIntervalSince1970, accuracy: 60, "today's clock without it")
            }
            XCTAssertEqual(ask(["quit"])["error"] as? String, "success")
            XCTAssertEqual(reel.finish(timeout: 15).status, 0)
        }
    }

    /// The window of a live stream (ffmpeg's live HLS muxer over a still picture, so the video is
    /// the same wherever a run joins) paused at its first frame: two runs under the same
    /// `--clock-at` give the same pixels; two runs on today's clock, seconds apart, do not (their
    /// time labels differ); and with the time labels masked by their ids, runs whose clocks are
    /// five minutes apart give the same pixels (a golden that ignores the clock).
    func testALiveWindowsPictureIsTheSameUnderTheSameClockAndWithTheClockMaskedOnXvfb() throws { try liveWindowPictures(onWeston: false) }
    func testALiveWindowsPictureIsTheSameUnderTheSameClockAndWithTheClockMaskedOnWeston() throws { try liveWindowPictures(onWeston: true) }

    private func liveWindowPictures(onWeston: Bool) throws {
        let dir = TestMedia.temporaryDirectory("reel-clock-at-picture")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A full window (six segments), so every run joins the same shape of playlist.
        let (packager, server) = try livePackager(in: dir, input: ["-f", "lavfi", "-i", "color=c=blue:s=320x180:r=25", "-c:v", "libx264", "-g", "25"], segments: 6)
        defer { packager.process.terminate(); _ = packager.finish(timeout: 5, dumpStacks: false) }
        func differing(_ a: URL, _ b: URL) -> String {
            ProcessRunner.run("/usr/bin/compare", ["-metric", "AE", a.path, b.path, "null:"], timeout: 30).stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        func capture(clockAt: String?, _ name: String) throws -> (whole: URL, masked: URL, labels: [String]) {
            // weston's headless backend (no Xwayland), one per run as a desktop session is: the
            // capture is the composed Wayland window's, its frame's corners drawn over what the
            // compositor had before.
            let weston = onWeston ? try WestonSession(xwayland: false) : nil
            defer { weston?.stop() }
            let socket = dir.appendingPathComponent("\(name).sock").path
            let reel = try BackgroundProcess(ProcessRunner.reelExecutable,
                                             ["--no-mpris", "--no-resume", "--pause", "--no-animations", "--audio-sink", "fakesink sync=true", "--geometry", "800x450", "--ipc", socket]
                                             + (clockAt.map { ["--clock-at", $0] } ?? []) + [server.url("/live/live.m3u8").absoluteString],
                                             environment: (weston?.environment ?? [:]).merging(["TZ": "UTC", "GTK_CSD": "0"]) { $1 })
            defer { if reel.process.isRunning { _ = reel.finish(timeout: 2) } }
            if weston == nil { XKeyboard.parkPointer() }
            let c = try XCTUnwrap(IPCTestClient(path: socket, timeout: 20), reel.stderr)
            var id = 0
            func ask(_ command: [Any]) -> [String: Any] { id += 1; return c.request(command, id: id) ?? [:] }
            func widgets() -> [[String: Any]] { (ask(["window-tree"])["data"] as? [[String: Any]])?.first?["widgets"] as? [[String: Any]] ?? [] }
            func text(_ id: String) -> String? { widgets().first { $0["id"] as? String == id }?["text"] as? String }
            // Paused at the first frame, the live UI is shown: the LIVE badge and times of day.
            let until = Date().addingTimeInterval(20)
            while Date() < until, !(widgets().contains { $0["id"] as? String == "reel-live" } && (text("reel-total") ?? "").count == 8) { usleep(100_000) }
            let labels = [text("reel-elapsed") ?? "", text("reel-total") ?? ""]
            XCTAssertEqual(labels[1].count, 8, "a time of day at the live edge while paused: \(labels) \(reel.stderr.suffix(400))")
            XCTAssertEqual(ask(["get_property", "time-control"])["data"] as? String, "paused")
            let (whole, masked) = (dir.appendingPathComponent("\(name).png"), dir.appendingPathComponent("\(name)-masked.png"))
            // The paused frame drawn and settled: two captures in a row alike (on a loaded
            // machine the first was taken before the frame was on screen, once in CI).
            let probe = dir.appendingPathComponent("\(name)-settling.png")
            var settled = false
            for _ in 0..<20 where !settled {
                usleep(300_000)
                XCTAssertEqual(ask(["screenshot", whole.path, "window"])["error"] as? String, "success")
                XCTAssertEqual(ask(["screenshot", probe.path, "window"])["error"] as? String, "success")
                settled = differing(whole, probe) == "0"
            }
            XCTAssertTrue(settled, "\(name): the paused window settles")
            XCTAssertEqual(ask(["set_property", "capture-mask", ["reel-elapsed", "reel-total"]])["error"] as? String, "success")
            XCTAssertEqual(ask(["screenshot", masked.path, "window"])["error"] as? String, "success")
            XCTAssertEqual(ask(["quit"])["error"] as? String, "success")
            XCTAssertEqual(reel.finish(timeout: 15).status, 0)
            return (whole, masked, labels)
        }
        let first = try capture(clockAt: "2030-01-01T00:00:00Z", "given-1")
        sleep(2)
        let second = try capture(clockAt: "2030-01-01T00:00:00Z", "given-2")
        XCTAssertEqual(first.labels, ["00:00:00", second.labels[1]], "the given clock at the first frame")
        XCTAssertEqual(differing(first.whole, second.whole), "0", "the same clock at the same media position: the same picture")
        let today = try capture(clockAt: nil, "today-1")
        sleep(2)
        let later = try capture(clockAt: nil, "today-2")
        XCTAssertNotEqual(today.labels, later.labels, "today's clock moved between the runs")
        XCTAssertNotEqual(differing(today.whole, later.whole), "0", "on today's clock the pictures differ")
        let fiveMinutesOn = try capture(clockAt: "2030-01-01T00:05:00Z", "given-3")
        XCTAssertEqual(fiveMinutesOn.labels[0], "00:05:00")
        XCTAssertNotEqual(differing(first.whole, fiveMinutesOn.whole), "0")
        XCTAssertEqual(differing(first.masked, fiveMinutesOn.masked), "0", "with the clock masked, clocks minutes apart give one picture")
    }
}
