import Foundation
import ReelCore
import XCTest

/// `LiveWatch`'s rules on synthetic reloads: a live playlist of 2 s segments with dates, reloaded
/// every second, broken one way at a time.
final class LiveWatchTests: XCTestCase {
    private let base = 1_800_000_000.0

    /// The playlist at wall-clock second `t`: segment n is listed once [2n, 2n + 2) is over.
    private func playlist(at t: Double, window: Int = 4, msShift: Int = 0, dsShift: Int = 0, drift: Double = 0,
                          discontinuityEvery: Int = 0) throws -> HLSMediaPlaylist {
        let newest = Int(t / 2) - 1
        let first = max(0, newest - window + 1)
        let ds = discontinuityEvery > 0 ? first / discontinuityEvery : 0
        var text = "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:\(first + msShift)\n#EXT-X-DISCONTINUITY-SEQUENCE:\(ds + dsShift)\n"
        for n in first...max(first, newest) {
            if discontinuityEvery > 0, n % discontinuityEvery == 0, n != first { text += "#EXT-X-DISCONTINUITY\n" }
            let date = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: base + Double(n) * 2 + drift))
            text += "#EXT-X-PROGRAM-DATE-TIME:\(date)\n#EXTINF:2.000,\ns\(n).ts\n"
        }
        return try XCTUnwrap(HLSPlaylist.parse(text).media)
    }

    /// Reloads every second from `from` to `to` (wall-clock seconds after `base`), the playlist
    /// as `make` says; the problems' codes and times.
    private func watch(_ v: inout LiveWatch.Variant, from: Double = 10, to: Double, _ make: (Double) throws -> HLSMediaPlaylist) rethrows -> [(String, Double)] {
        var found: [(String, Double)] = []
        var t = from
        while t <= to {
            found += v.observe(try make(t), at: t - from, now: base + t + 0.2).map { ($0.code, $0.at) }
            t += 1
        }
        return found
    }

    func testAHealthyStreamBreaksNothing() throws {
        var v = LiveWatch.Variant(name: "720p")
        XCTAssertTrue(try watch(&v, to: 60) { try self.playlist(at: $0, discontinuityEvery: 5) }.isEmpty)
        XCTAssertEqual(v.edge, 29, "the segment that ended at 60 s")
    }

    func testAStallIsStaleOncePerEpisode() throws {
        var v = LiveWatch.Variant(name: "a")
        // Frozen from 20 to 30 s, then again from 40 to 45.
        let found = try watch(&v, to: 60) { t in
            try self.playlist(at: (20..<30).contains(t) ? 20 : (40..<45).contains(t) ? 40 : t)
        }
        XCTAssertEqual(found.map(\.0), ["playlist-stale", "playlist-stale"])
        XCTAssertEqual(found.map(\.1), [14, 34], "10 s after the watch began + 4 s (more than 3 s without a new segment), twice")
    }

    func testMediaSequenceJumpsAndGoingBack() throws {
        var v = LiveWatch.Variant(name: "a")
        let ahead = try watch(&v, to: 30) { t in try self.playlist(at: t, msShift: t >= 20 ? 1 : 0) }
        XCTAssertEqual(ahead.map(\.0), ["media-sequence-skip"])
        XCTAssertEqual(ahead.first?.1, 10)
        var w = LiveWatch.Variant(name: "b")
        let back = try watch(&w, to: 30) { t in try self.playlist(at: t, msShift: t >= 20 ? -1 : 0) }
        XCTAssertEqual(back.map(\.0), ["media-sequence-backwards"])
    }

    func testTheDiscontinuitySequenceCountsWhatLeft() throws {
        var v = LiveWatch.Variant(name: "a")
        // The server forgets to count the discontinuities that slide out from 30 s on.
        let found = try watch(&v, to: 50) { t in try self.playlist(at: t, dsShift: t >= 30 ? -1 : 0, discontinuityEvery: 3) }
        XCTAssertEqual(found.map(\.0), ["discontinuity-sequence"])
    }

    func testADateDriftIsSeenAtTheNextSegment() throws {
        var v = LiveWatch.Variant(name: "a")
        let found = try watch(&v, to: 50) { t in try self.playlist(at: t, drift: t >= 31 ? 5 : 0) }
        XCTAssertEqual(found.map(\.0), ["pdt-drift"])
        XCTAssertEqual(try XCTUnwrap(found.first).1, 22, accuracy: 1.01, "at the first new segment after the drift")
        var small = LiveWatch.Variant(name: "b")
        XCTAssertTrue(try watch(&small, to: 50) { t in try self.playlist(at: t, drift: t >= 31 ? 1.5 : 0) }.isEmpty, "within the tolerance")
    }

    func testAnUnavailableSegmentIsSaidOnce() {
        var v = LiveWatch.Variant(name: "a")
        XCTAssertEqual(v.unavailable("s9.ts", status: 404, at: 3)?.code, "segment-unavailable")
        XCTAssertNil(v.unavailable("s9.ts", status: 404, at: 4))
        XCTAssertTrue(v.unavailable("s10.ts", status: nil, at: 5)?.message.contains("no answer") == true)
    }

    func testVariantsAgainstEachOther() throws {
        var variants = [LiveWatch.Variant(name: "720p"), LiveWatch.Variant(name: "360p")]
        var found: [String] = []
        for t in stride(from: 10.0, through: 30, by: 1) {
            _ = variants[0].observe(try playlist(at: t, discontinuityEvery: 4), at: t, now: base + t)
            // The 360p variant: its discontinuity sequence one higher, its dates 3 s off, and from
            // 20 s its edge two segments behind.
            _ = variants[1].observe(try playlist(at: t >= 20 ? t - 4 : t, dsShift: 1, drift: 3, discontinuityEvery: 4), at: t, now: base + t)
            found += LiveWatch.across(&variants, at: t).map { "\($0.variant) \($0.code)" }
        }
        XCTAssertEqual(found, ["360p discontinuity-mismatch", "360p pdt-mismatch", "360p variant-lagging"])
    }
}

/// The picture and sound over a watch: black, frozen and silent, once per episode.
final class LiveWatchPicturesTests: XCTestCase {
    func testBlackFrozenAndSilentEpisodes() {
        var p = LiveWatch.Pictures()
        let moving: [[UInt8]] = (0..<4).map { n in (0..<64).map { UInt8(($0 * 7 + n * 50) % 250) } }
        let black = [UInt8](repeating: 16, count: 64)
        let loud = (level: 0.5, samples: UInt64(48_000)), quiet = (level: 0.0001, samples: UInt64(48_000))
        var found: [String] = []
        let photos: [([UInt8], (level: Double, samples: UInt64))] = [
            (moving[0], loud), (moving[1], loud), (moving[1], loud), (moving[1], loud), (moving[2], quiet), (moving[3], quiet),
            (black, loud), (black, loud), (moving[0], loud),
        ]
        for (n, (luma, audio)) in photos.enumerated() {
            found += p.photographed(luma: luma, audio: audio, at: Double(n * 10)).map { "\($0.at) \($0.code)" }
        }
        // Frozen once over the two repeats; silent once over two quiet photos; black once over two
        // black ones (a black picture is not also frozen).
        XCTAssertEqual(found, ["20.0 frozen-video", "40.0 silent-audio", "60.0 black-video"])
        XCTAssertTrue(p.photographed(luma: nil, audio: nil, at: 90).isEmpty, "no video, no audio: nothing to say")
    }
}
