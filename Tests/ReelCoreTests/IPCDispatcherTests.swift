import Foundation
import ReelCore
import ReelTestSupport
import XCTest

/// A target that records what it was asked to do, with stand-ins for the engine's properties
/// (the real ones are exercised over the socket in ReelAppTests).
@MainActor
private func RecordingTarget() -> StandInTarget {
    StandInTarget(state: PlaybackSnapshot(items: [.init(uri: "file:///m/a.mp4", title: "a"), .init(uri: "https://h/b.mp4?token=SECRET", title: "b")],
                                          index: 0, position: 4, duration: 10, status: .readyToPlay, timeControl: .playing, wantsToPlay: true,
                                          volume: 0.5, mediaInfo: MediaInfo(width: 640, height: 360, isSeekable: true)))
}

@MainActor
private func dispatcher(_ t: StandInTarget, _ dir: URL = FileManager.default.temporaryDirectory) -> IPCDispatcher {
    IPCDispatcher(target: t, screenshotDirectory: dir, registry: t.registry)
}

@MainActor
private func ipcReply(_ d: IPCDispatcher, _ line: String) throws -> [String: Any] {
    var out: String?
    d.handle(line) { out = $0 }
    let text = try XCTUnwrap(out, "every line gets a reply")
    return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

final class IPCDispatcherTests: XCTestCase {

    func testCommandsReachTheTargetAndRepliesFollowMpvsShape() throws {
        try onMain {
            let t = RecordingTarget()
            let d = dispatcher(t)
            let ok = try ipcReply(d, #"{"command":["seek",2,"absolute"],"request_id":1}"#)
            XCTAssertEqual(ok["error"] as? String, "success")
            XCTAssertEqual(ok["request_id"] as? Int, 1)
            XCTAssertTrue(ok.keys.contains("data"))
            _ = try ipcReply(d, #"{"command":["seek",-1]}"#)
            _ = try ipcReply(d, #"{"command":["seek",50,"absolute-percent+keyframes"]}"#)
            _ = try ipcReply(d, #"{"command":["volume",30]}"#)
            _ = try ipcReply(d, #"{"command":["mute"]}"#)
            _ = try ipcReply(d, #"{"command":["set_property","pause",true]}"#)
            _ = try ipcReply(d, #"{"command":["set_property","time-pos",7.5]}"#)
            XCTAssertEqual(t.calls, ["seek 2.0 accurate", "seek 3.0 accurate", "seek 5.0 keyframe", "volume 0.3", "muted true", "pause", "seek 7.5 accurate"])
            t.calls.removeAll()

            let noNext = try ipcReply(d, #"{"command":["previous"],"request_id":"p"}"#)
            XCTAssertEqual(noNext["error"] as? String, "unavailable")
            XCTAssertEqual(noNext["request_id"] as? String, "p")
            XCTAssertEqual(try ipcReply(d, #"{"command":["rate",-2]}"#)["error"] as? String, "unavailable", "a refused rate is an error")
            XCTAssertEqual(try ipcReply(d, #"{"command":["get_property","colour"]}"#)["error"] as? String, "unknown-property")
            XCTAssertEqual(try ipcReply(d, #"{"command":["set_property","duration",3]}"#)["error"] as? String, "read-only-property")
            XCTAssertEqual(try ipcReply(d, #"{"command":["set_property","pause","maybe"]}"#)["error"] as? String,
                           "unsupported format for accessing property", "mpv's words for a value of the wrong type")
            XCTAssertEqual(try ipcReply(d, #"{"command":["jump",9]}"#)["error"] as? String, "unavailable")
            // The live edge: refused on a VOD item, done on a live one; how far behind is a property.
            XCTAssertEqual(try ipcReply(d, #"{"command":["live-edge"]}"#)["error"] as? String, "unavailable")
            XCTAssertTrue(try ipcReply(d, #"{"command":["get_property","behind-live-edge"]}"#)["data"] is NSNull)
            t.state.mediaInfo.isLive = true
            t.state.behindLiveEdge = 7.5
            XCTAssertEqual(try ipcReply(d, #"{"command":["live-edge"]}"#)["error"] as? String, "success")
            XCTAssertEqual(try ipcReply(d, #"{"command":["get_property","behind-live-edge"]}"#)["data"] as? Double, 7.5)
            XCTAssertEqual(try ipcReply(d, #"{"command":["live-edge",1]}"#)["error"] as? String, "invalid-argument")
            XCTAssertEqual(t.calls.suffix(2), ["live-edge", "live-edge"])
            // Frame steps: done on a started item, refused before.
            XCTAssertEqual(try ipcReply(d, #"{"command":["frame-step"]}"#)["error"] as? String, "success")
            XCTAssertEqual(try ipcReply(d, #"{"command":["frame-back-step"]}"#)["error"] as? String, "success")
            t.state.status = .unknown
            XCTAssertEqual(try ipcReply(d, #"{"command":["frame-step"]}"#)["error"] as? String, "unavailable")
            XCTAssertEqual(t.calls.suffix(3), ["frame-step", "frame-back-step", "frame-step"])
            let bad = try ipcReply(d, "{{{")
            XCTAssertEqual(bad["error"] as? String, "invalid-json")
            XCTAssertTrue(bad["request_id"] is NSNull)
            XCTAssertFalse((bad["message"] as? String ?? "").isEmpty)
        }
    }

    /// mpv's paging (issue 51): `playlist/N` one entry, `playlist/N/filename` one field; the whole
    /// `playlist` refused past its limit with the way to page.
    func testThePlaylistIsPagedAndAWholeHugeOneIsRefusedWithTheWay() throws {
        try onMain {
            let t = RecordingTarget()
            let d = dispatcher(t)
            @MainActor func reply(_ p: String) throws -> [String: Any] { try ipcReply(d, #"{"command":["get_property",""# + p + #""]}"#) }
            let first = try reply("playlist/1")
            let one = try XCTUnwrap(first["data"] as? [String: Any], "\(first)")
            XCTAssertEqual(one["index"] as? Int, 1)
            XCTAssertEqual(one["current"] as? Bool, false)
            XCTAssertFalse((one["uri"] as? String ?? "").contains("SECRET"))
            XCTAssertEqual(try reply("playlist/0/filename")["data"] as? String, "/m/a.mp4", "mpv's: the path, not a file URI")
            XCTAssertEqual(try reply("playlist/0/current")["data"] as? Bool, true)
            XCTAssertEqual(try reply("playlist/2")["error"] as? String, "invalid-argument")
            for bad in ["playlist/-1", "playlist/x", "playlist/0/secret", "playlist//"] {
                XCTAssertEqual(try reply(bad)["error"] as? String, "unknown-property", bad)
            }
            XCTAssertEqual(try ipcReply(d, #"{"command":["set_property","playlist/0","x"]}"#)["error"] as? String, "read-only-property", "read-only paging")
            t.state.items = (0...IPCDispatcher.playlistWholeLimit).map { .init(uri: "file:///m/\($0).mp4", title: "\($0)") }
            let refused = try reply("playlist")
            XCTAssertEqual(refused["error"] as? String, "unavailable")
            XCTAssertTrue((refused["message"] as? String ?? "").contains("playlist/N"), "\(refused)")
            XCTAssertEqual(try reply("playlist-count")["data"] as? Int, IPCDispatcher.playlistWholeLimit + 1)
            XCTAssertEqual(try reply("playlist/10000/title")["data"] as? String, "10000")
        }
    }

    func testPropertiesAreReadFromTheSnapshotAndSecretsAreRedacted() throws {
        try onMain {
            let t = RecordingTarget()
            let d = dispatcher(t)
            @MainActor func get(_ p: String) throws -> Any? { try ipcReply(d, #"{"command":["get_property",""# + p + #""]}"#)["data"] }
            XCTAssertEqual(try get("time-pos") as? Double, 4)
            XCTAssertEqual(try get("duration") as? Double, 10)
            XCTAssertEqual(try get("pause") as? Bool, false)
            XCTAssertEqual(try get("volume") as? Double, 50)
            XCTAssertEqual(try get("status") as? String, "readyToPlay")
            XCTAssertEqual(try get("playlist-count") as? Int, 2)
            XCTAssertEqual((try get("media-info") as? [String: Any])?["width"] as? Int, 640)
            let list = try XCTUnwrap(try get("playlist") as? [[String: Any]])
            XCTAssertEqual(list.map { $0["current"] as? Bool }, [true, false])
            let second = list[1]["uri"] as? String ?? ""
            XCTAssertFalse(second.contains("SECRET"), second)
        }
    }

    func testScreenshotWritesTheFrameWithTheTemplateAndQuitRepliesFirst() throws {
        try onMain {
            let dir = TestMedia.temporaryDirectory("reel-ipc-dispatch")
            defer { try? FileManager.default.removeItem(at: dir) }
            let t = RecordingTarget()
            // A 1x1 PNG.
            let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC")!
            t.frame = .success(CapturedFrame(png: png, time: 1.5))
            let d = dispatcher(t, dir)
            let r = try ipcReply(d, #"{"command":["screenshot"],"request_id":3}"#)
            XCTAssertEqual(r["error"] as? String, "success")
            let data = try XCTUnwrap(r["data"] as? [String: Any])
            XCTAssertEqual(data["file"] as? String, dir.appendingPathComponent("000-a-00h00m01s500.png").path)
            XCTAssertEqual(data["width"] as? Int, 1)
            XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("000-a-00h00m01s500.png")), png)

            t.frame = .failure(PlaybackError(kind: .output, message: "The item has no video."))
            let f = try ipcReply(d, #"{"command":["screenshot"]}"#)
            XCTAssertEqual(f["error"] as? String, "capture-failed")
            XCTAssertEqual(f["message"] as? String, "The item has no video.")

            let window = try ipcReply(d, #"{"command":["screenshot","window"]}"#)
            XCTAssertEqual(window["error"] as? String, "capture-failed", "no window in a headless session")
            XCTAssertTrue((window["message"] as? String ?? "").contains("no window"))

            var order: [String] = []
            d.handle(#"{"command":["quit",4]}"#) { _ in order.append("reply:" + t.calls.joined()) }
            XCTAssertEqual(order, ["reply:"], "the reply is queued before the target quits")
            XCTAssertEqual(t.calls, ["quit 4"])
        }
    }
}

/// Issue 28, item 3: every number a socket client sends for a rate or a rendition is range-checked
/// (1/64 ≤ |rate| ≤ 64, mpv's bounds): refused with invalid-argument, never passed on to trap or
/// to corrupt GStreamer's segment arithmetic.
final class IPCNumberRangeTests: XCTestCase {
    func testRatesOutsideTheOneRangeAndHugeRenditionsAreRefused() throws {
        try onMain {
            let t = RecordingTarget()
            let d = dispatcher(t)
            for line in [#"{"command":["rate",1e-300]}"#, #"{"command":["rate",-1e300]}"#, #"{"command":["rate",65]}"#,
                         #"{"command":["rate",0.01]}"#, #"{"command":["set_property","speed",-1e300]}"#,
                         #"{"command":["set_property","speed",1e-300]}"#, #"{"command":["set_property","speed",1e-320]}"#,
                         #"{"command":["set_property","rate",0]}"#, #"{"command":["set_property","rendition",1e300]}"#,
                         #"{"command":["set_property","rendition",-1e300]}"#, #"{"command":["set_property","rendition",2.5]}"#] {
                XCTAssertEqual(try ipcReply(d, line)["error"] as? String, "invalid-argument", line)
            }
            XCTAssertEqual(t.calls, [], "nothing reached the target")
            XCTAssertEqual(try ipcReply(d, #"{"command":["set_property","speed",0.015625]}"#)["error"] as? String, "success", "1/64 is in range")
            XCTAssertEqual(try ipcReply(d, #"{"command":["rate",64]}"#)["error"] as? String, "success")
            XCTAssertEqual(t.calls, ["rate 0.015625", "rate 64.0"])
        }
    }

    func testTheRateRangeAndItsClamp() {
        for r in [1.0 / 64, 64, -64, 1, -1, 0.5] { XCTAssertTrue(BoundedNumber.isPlayableRate(r), "\(r)") }
        for r in [0, 1e-300, -1e300, 64.5, .nan, .infinity, -.infinity] { XCTAssertFalse(BoundedNumber.isPlayableRate(r), "\(r)") }
        XCTAssertEqual(BoundedNumber.clampedRate(1e-300), 1.0 / 64)
        XCTAssertEqual(BoundedNumber.clampedRate(-1e300), -64)
        XCTAssertEqual(BoundedNumber.clampedRate(-.infinity), -64)
        XCTAssertNil(BoundedNumber.clampedRate(0))
        XCTAssertNil(BoundedNumber.clampedRate(.nan))
        XCTAssertEqual(BoundedNumber.microseconds(1e13), Int(BoundedNumber.maximumSeconds * 1e6), "MPRIS positions are clamped, not trapped")
    }
}
