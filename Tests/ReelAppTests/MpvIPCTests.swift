import Foundation
import ReelTestSupport
import XCTest

/// Issue 57: the socket as mpv's clients use it. A real mpv client library (python-mpv-jsonipc,
/// the one behind jellyfin-mpv-shim, installed from PyPI into `.build/python` by `make setup`)
/// drives a windowed Reel; a raw client speaks each of mpv's commands and reads mpv's events.
final class MpvClientLibraryTests: XCTestCase {
    static let library = TestMedia.packageRoot.appendingPathComponent(".build/python")

    func testPythonMpvJsonipcConnectsReadsSetsObservesQueuesBindsAKeyAndQuits() throws {
        let module = Self.library.appendingPathComponent("python_mpv_jsonipc.py").path
        guard FileManager.default.fileExists(atPath: module) else {
            return XCTFail("python-mpv-jsonipc is not in .build/python: run `make setup` (Resources/scripts/setup-python.sh)")
        }
        let dir = TestMedia.temporaryDirectory("reel-mpv-client")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("mpv.sock").path
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable,
                                         ["--no-mpris", "--autoload=no", "--audio-sink", "fakesink sync=true", "--ipc", socket, TestMedia.path("color10s.mp4")])
        defer { if reel.process.isRunning { _ = reel.finish(timeout: 1) } }
        guard IPCTestClient(path: socket, timeout: 20) != nil else { return XCTFail("no socket: \(reel.stderr)") }
        let script = """
        import sys, time, threading, json
        sys.path.insert(0, sys.argv[1])
        from python_mpv_jsonipc import MPV
        m = MPV(start_mpv=False, ipc_socket=sys.argv[2])
        out = {"properties": len(m.properties), "has_time_pos": "time_pos" in m.properties}
        seen = []
        @m.property_observer("time-pos")
        def on_time(name, value): seen.append((name, value))
        @m.property_observer("pause")
        def on_pause(name, value): seen.append((name, value))
        deadline = time.time() + 15
        while m.time_pos is None or m.time_pos < 0.5:
            if time.time() > deadline: break
            time.sleep(0.1)
        out["volume_before"] = m.volume
        m.volume = 40
        out["volume_after"] = m.volume
        out["path"], out["filename"], out["media_title"] = m.path, m.filename, m.media_title
        out["mpv_version"] = m.mpv_version
        m.pause = True
        time.sleep(0.4)
        m.pause = False
        time.sleep(1.0)
        out["pause_changes"] = [v for n, v in seen if n == "pause"]
        out["time_changes"] = len([v for n, v in seen if n == "time-pos"])
        m.loadfile(sys.argv[3], "append")
        out["count"] = m.playlist_count
        m.playlist_next()
        time.sleep(0.5)
        out["pos"] = m.playlist_pos
        pressed = threading.Event()
        m.bind_key_press("x", pressed.set)
        m.command("keypress", "x")
        out["pressed"] = pressed.wait(5)
        out["client_name"] = m.command("client_name")
        print(json.dumps(out), flush=True)
        m.command("quit")
        time.sleep(0.5)
        m.terminate()
        """
        let run = ProcessRunner.run("/usr/bin/env", ["python3", "-c", script, Self.library.path, socket, TestMedia.path("clip2s.mp4")], timeout: 90)
        XCTAssertEqual(run.status, 0, "python: \(run.stderr.suffix(1500))")
        let line = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let out = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], run.stdout + run.stderr)
        XCTAssertGreaterThan(out["properties"] as? Int ?? 0, 50, "property-list answered")
        XCTAssertEqual(out["has_time_pos"] as? Bool, true)
        XCTAssertEqual(out["volume_before"] as? Double, 100)
        XCTAssertEqual(out["volume_after"] as? Double, 40)
        XCTAssertEqual(out["path"] as? String, TestMedia.path("color10s.mp4"), "the path as given, not a file URI")
        XCTAssertEqual(out["filename"] as? String, "color10s.mp4")
        XCTAssertEqual(out["media_title"] as? String, "color10s.mp4")
        XCTAssertTrue((out["mpv_version"] as? String ?? "").hasPrefix("reel "), "\(out)")
        XCTAssertEqual(out["pause_changes"] as? [Bool], [false, true, false], "the observer saw pause as it changed, once each")
        XCTAssertGreaterThan(out["time_changes"] as? Int ?? 0, 3, "time-pos changes while it plays")
        XCTAssertEqual(out["count"] as? Int, 2, "loadfile … append")
        XCTAssertEqual(out["pos"] as? Int, 1, "playlist-next")
        XCTAssertEqual(out["pressed"] as? Bool, true, "keybind → keypress → script-message → client-message")
        XCTAssertTrue((out["client_name"] as? String ?? "").hasPrefix("ipc-"))
        let end = reel.finish(timeout: 15)
        XCTAssertEqual(end.status, 0, "quit: exit 0 (\(reel.stderr.suffix(600)))")
        XCTAssertFalse(end.killed)
    }
}

/// mpv's JSON IPC spoken raw (ipc.rst, input.rst): each command the issue names, its reply with
/// the request id echoed, and mpv's events beside Reel's.
final class MpvRawProtocolTests: XCTestCase {
    private func session(_ dir: URL, _ media: [String]) throws -> (BackgroundProcess, IPCTestClient) {
        let socket = dir.appendingPathComponent("raw.sock").path
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--headless", "--audio-sink", "fakesink", "--video-sink", "fakesink sync=true",
                                                                        "--ipc", socket] + media)
        guard let client = IPCTestClient(path: socket, timeout: 20) else {
            _ = reel.finish(timeout: 5, dumpStacks: false)
            throw NSError(domain: "MpvRaw", code: 1, userInfo: [NSLocalizedDescriptionKey: "no socket: \(reel.stderr)"])
        }
        return (reel, client)
    }

    func testEveryMpvCommandAnswersAsMpvsAndItsEventsCome() throws {
        let dir = TestMedia.temporaryDirectory("reel-mpv-raw")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (reel, client) = try session(dir, [TestMedia.path("clip2s.mp4"), TestMedia.path("color10s.mp4")])
        defer { if reel.process.isRunning { _ = reel.finish(timeout: 1) } }
        var id = 100
        func ask(_ command: [Any]) -> [String: Any] {
            id += 1
            let reply = client.request(command, id: id) ?? [:]
            XCTAssertEqual(reply["request_id"] as? Int, id, "\(command): request_id echoed")
            return reply
        }
        func data(_ command: [Any]) -> Any? {
            let r = ask(command)
            XCTAssertEqual(r["error"] as? String, "success", "\(command): \(r)")
            return r["data"]
        }
        // (The first item's start-file may come before the client connects: the second's is read below.)
        XCTAssertNotNil(client.request(["get_property", "time-pos"], id: 1), "connected")
        let known = Date().addingTimeInterval(15)
        while client.request(["get_property", "duration"], id: 2)?["data"] is NSNull, Date() < known { usleep(100_000) }
        XCTAssertTrue((data(["client_name"]) as? String ?? "").hasPrefix("ipc-"))
        XCTAssertEqual(data(["get_version"]) as? Int, 2 << 16 | 5)
        let properties = data(["get_property", "property-list"]) as? [String] ?? []
        for p in ["mpv-version", "filename", "path", "media-title", "percent-pos", "time-remaining", "idle-active", "eof-reached", "time-pos", "pause", "volume"] {
            XCTAssertTrue(properties.contains(p), "property-list has \(p)")
        }
        let commands = (data(["get_property", "command-list"]) as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        for c in ["loadfile", "observe_property", "unobserve_property", "client_name", "get_version", "script-message", "frame-step", "sub-add", "playlist-clear"] {
            XCTAssertTrue(commands.contains(c), "command-list has \(c)")
        }
        XCTAssertEqual(data(["get_property", "filename"]) as? String, "clip2s.mp4")
        XCTAssertEqual(data(["get_property", "path"]) as? String, TestMedia.path("clip2s.mp4"))
        XCTAssertEqual(data(["get_property", "playlist/1/filename"]) as? String, TestMedia.path("color10s.mp4"))
        XCTAssertEqual(data(["get_property", "idle-active"]) as? Bool, false)
        XCTAssertEqual(data(["get_property", "eof-reached"]) as? Bool, false)
        let percent = data(["get_property", "percent-pos"]) as? Double ?? -1
        XCTAssertTrue((0...100).contains(percent), "percent-pos \(percent)")
        let remaining = data(["get_property", "time-remaining"]) as? Double ?? -1
        XCTAssertTrue((0...2.2).contains(remaining), "time-remaining \(remaining)")
        XCTAssertEqual(data(["get_property_string", "volume"]) as? String, "100.000000", "mpv's string form")
        XCTAssertEqual(data(["get_property_string", "mute"]) as? String, "no")
        // An observer: the value at once, then each change; none after unobserve.
        XCTAssertTrue(data(["observe_property", 7, "volume"]) is NSNull)
        XCTAssertNotNil(client.waitForEvent { $0["event"] as? String == "property-change" && $0["id"] as? Int == 7 && $0["data"] as? Double == 100 })
        _ = data(["set_property", "volume", 55])
        XCTAssertNotNil(client.waitForEvent { $0["event"] as? String == "property-change" && $0["id"] as? Int == 7 && $0["data"] as? Double == 55 })
        _ = data(["unobserve_property", 7])
        _ = data(["set_property", "volume", 60])
        _ = data(["get_property", "volume"])
        XCTAssertFalse(client.events.contains { $0["event"] as? String == "property-change" && $0["data"] as? Double == 60 }, "unobserved")
        // script-message reaches every client as client-message.
        let other = try XCTUnwrap(IPCTestClient(path: dir.appendingPathComponent("raw.sock").path))
        _ = other.request(["client_name"], id: 1)
        _ = data(["script-message", "hello", "there"])
        XCTAssertNotNil(other.waitForEvent { $0["event"] as? String == "client-message" && $0["args"] as? [String] == ["hello", "there"] })
        // disable_event: that connection hears no more seek events; the first still does.
        XCTAssertEqual(other.request(["disable_event", "seek"], id: 2)?["error"] as? String, "success")
        // A seek: seek, then playback-restart.
        _ = data(["seek", 0.5, "absolute"])
        XCTAssertNotNil(client.waitForEvent { $0["event"] as? String == "seek" })
        XCTAssertNotNil(client.waitForEvent { $0["event"] as? String == "playback-restart" && client.events.contains { $0["event"] as? String == "seek" } })
        // The first item ends: end-file eof, then the next starts.
        XCTAssertNotNil(client.waitForEvent(timeout: 20) { $0["event"] as? String == "end-file" && $0["reason"] as? String == "eof" && $0["playlist_entry_id"] as? Int == 1 })
        XCTAssertNotNil(client.waitForEvent(timeout: 20) { $0["event"] as? String == "start-file" && $0["playlist_entry_id"] as? Int == 2 })
        func lifecycle() -> [String] {
            Array(client.events.compactMap { $0["event"] as? String }.filter { ["end-file", "start-file", "file-loaded", "playback-restart"].contains($0) }.suffix(4))
        }
        _ = client.waitForEvent(timeout: 10) { _ in lifecycle() == ["end-file", "start-file", "file-loaded", "playback-restart"] }
        XCTAssertEqual(lifecycle(), ["end-file", "start-file", "file-loaded", "playback-restart"], "mpv's order, on a gapless switch too")
        _ = other.waitForEvent(timeout: 2) { $0["event"] as? String == "start-file" && $0["playlist_entry_id"] as? Int == 2 }
        XCTAssertFalse(other.events.contains { $0["event"] as? String == "seek" }, "disabled on that connection")
        XCTAssertEqual(data(["get_property", "mpv-version"]).map { "\($0)" }?.hasPrefix("reel "), true)
        // The last item plays to its end: idle (a socket keeps Reel, as mpv's --idle); quit: shutdown.
        _ = data(["seek", 9.5, "absolute"])
        XCTAssertNotNil(client.waitForEvent(timeout: 20) { $0["event"] as? String == "idle" }, "idle once the queue ended")
        XCTAssertEqual(data(["get_property", "idle-active"]) as? Bool, true)
        _ = data(["quit"])
        XCTAssertNotNil(client.waitForEvent(timeout: 10) { $0["event"] as? String == "shutdown" }, "shutdown before the socket closes")
        XCTAssertEqual(reel.finish(timeout: 15).status, 0)
    }
}
