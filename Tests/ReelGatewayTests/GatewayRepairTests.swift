import Foundation
import NIOCore
import NIOHTTP1
import ReelCore
@testable import ReelGateway
import Synchronization
import XCTest

/// Each of the gateway's repairs alone, bytes in → bytes out (`Repairs/`), and the chains' order:
/// what playbin3 gets of a playlist, an MPD, a WebVTT or a packed-audio segment. The same repairs
/// through a real gateway and server are in the Gateway*Tests and the app's stream tests.
final class GatewayRepairTests: XCTestCase {
    let base = URL(string: "https://cdn.example.test/show/master.m3u8")!
    let gatewayBase = "http://127.0.0.1:1"

    private func context(_ item: GatewayItem? = nil, registry: GatewayRegistry = GatewayRegistry(), request: HTTPRequestHead? = nil)
        -> (RepairContext, GatewayRegistry) {
        let item = item ?? GatewayItem(url: base)
        let id = registry.register(item)
        var c = RepairContext(item: item, id: id, resource: 0, base: item.url)
        if let request { c.request = request }
        return (c, registry)
    }

    let master = """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="audio/en.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English (Commentary)",LANGUAGE="en",URI="audio/en-c.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=800000,AUDIO="a"
        low/index.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=2400000,AUDIO="a"
        high/index.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=5000000,AUDIO="a"
        https://other.example.test/top/index.m3u8

        """
    let media = """
        #EXTM3U
        #EXT-X-TARGETDURATION:2
        #EXT-X-MEDIA-SEQUENCE:7
        #EXTINF:2.0,
        seg7.ts
        #EXTINF:2.5,
        seg8.ts
        #EXTINF:2.0,
        https://other.example.test/seg9.ts

        """

    // MARK: HLS

    func testVariantAvailabilityLeavesOutTheVariantsThatFailAndTellsEach() async throws {
        let (c, _) = context()
        let asked = Mutex<[String]>([]), told = Mutex<[String]>([])
        let repair = VariantAvailability(probe: { url, _ in
            asked.withLock { $0.append(url.absoluteString) }
            return url.path.contains("high") ? PlaybackError(kind: .notFound, message: "404", uri: url.absoluteString) : nil
        }, told: { _, url, _ in told.withLock { $0.append(url.absoluteString) } })
        let output = try await repair.repair(master, c)
        XCTAssertEqual(Set(asked.withLock { $0 }), ["https://cdn.example.test/show/low/index.m3u8", "https://cdn.example.test/show/high/index.m3u8",
                                                     "https://other.example.test/top/index.m3u8"])
        XCTAssertEqual(told.withLock { $0 }, ["https://cdn.example.test/show/high/index.m3u8"])
        XCTAssertFalse(output.contains("high/index.m3u8"))
        XCTAssertFalse(output.contains("BANDWIDTH=2400000"))
        XCTAssertTrue(output.contains("low/index.m3u8") && output.contains("https://other.example.test/top/index.m3u8"))
        XCTAssertTrue(output.contains("#EXT-X-MEDIA:TYPE=AUDIO"), "renditions stay")
        // A media playlist, and a master of one variant, are not asked about.
        let untouched = VariantAvailability(probe: { _, _ in XCTFail("asked"); return nil }, told: { _, _, _ in })
        let one = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nlow/index.m3u8\n"
        let fromMedia = try await untouched.repair(media, c)
        let fromOne = try await untouched.repair(one, c)
        XCTAssertEqual(fromMedia, media)
        XCTAssertEqual(fromOne, one)
    }

    func testVariantAvailabilityCutShortByTheReaderLeavingKeepsNothing() async throws {
        let (c, _) = context()
        // The reader leaves while the variants are being asked: the probe cancels the check's
        // own task (once it is known), as the gateway's `Transfers` does, then fails.
        let outer = Mutex<Task<String, Error>?>(nil)
        let repair = VariantAvailability(probe: { url, _ in
            for _ in 0..<200 where outer.withLock({ $0 }) == nil { try? await Task.sleep(for: .milliseconds(10)) }
            outer.withLock { $0 }?.cancel()
            return PlaybackError(kind: .network, message: "cut", uri: url.absoluteString)
        }, told: { _, _, _ in XCTFail("a check cut short says nothing of the variants") })
        let text = master
        let task = Task { try await repair.repair(text, c) }
        outer.withLock { $0 = task }
        do {
            _ = try await task.value
            XCTFail("a cancelled check is no answer")
        } catch is CancellationError {}
    }

    func testRenditionLanguagesTagOnlyALaterNamesakeOfAMaster() async throws {
        let (c, _) = context()
        let output = try await RenditionLanguageSeparation().repair(master, c)
        XCTAssertTrue(output.contains(#"NAME="English",LANGUAGE="en","#))
        XCTAssertTrue(output.contains(#"NAME="English (Commentary)",LANGUAGE="en-x-reel2""#), output)
        XCTAssertEqual(output.replacingOccurrences(of: "-x-reel2", with: ""), master, "every other byte kept")
        let fromMedia = try await RenditionLanguageSeparation().repair(media, c)
        XCTAssertEqual(fromMedia, media)
    }

    func testLiveWindowEditKeepsTheNewestSegmentsOfALiveItemOnly() async throws {
        var segments = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n"
        for i in 0..<(LiveWindowCap.maximumSegments + 5) { segments += "#EXTINF:2.0,\ns\(i).ts\n" }
        var item = GatewayItem(url: base)
        let (vod, _) = context(item)
        let unchanged = try await LiveWindowEdit().repair(segments, vod)
        XCTAssertEqual(unchanged, segments, "no live stream: as it came")
        item.live = LiveStream(program: nil)
        let (live, _) = context(item)
        let output = try await LiveWindowEdit().repair(segments, live)
        XCTAssertTrue(output.contains("#EXT-X-MEDIA-SEQUENCE:5\n"), "the five oldest left out")
        XCTAssertFalse(output.contains("\ns4.ts\n"))
        XCTAssertTrue(output.contains("\ns5.ts\n") && output.hasSuffix("s\(LiveWindowCap.maximumSegments + 4).ts\n"))
        XCTAssertEqual(item.live?.snapshot?.firstSequence, 5, "its window kept for the live clock")
    }

    func testPackedAudioTimesKeepEachSegmentsStartAndPassTheText() async throws {
        let clock = PackedAudioClock()
        var (c, _) = context()
        c.base = URL(string: "https://cdn.example.test/show/audio/index.m3u8")!
        let output = try await PackedAudioTimes(clock: clock).repair(media, c)
        XCTAssertEqual(output, media)
        XCTAssertEqual(clock.start(of: URL(string: "https://cdn.example.test/show/audio/seg7.ts")!, item: c.id), 0)
        XCTAssertEqual(clock.start(of: URL(string: "https://cdn.example.test/show/audio/seg8.ts")!, item: c.id), 2.0)
        XCTAssertEqual(clock.start(of: URL(string: "https://other.example.test/seg9.ts")!, item: c.id), 4.5)
        XCTAssertNil(clock.start(of: URL(string: "https://cdn.example.test/show/audio/seg10.ts")!, item: c.id))
    }

    func testPlaylistRoutesSendEveryURIBackThroughTheGatewayAndCloseAFinishedItem() async throws {
        var item = GatewayItem(url: base)
        item.finished = true
        let (c, registry) = context(item)
        let output = try await PlaylistRoutes(registry: registry, baseURL: gatewayBase).repair(media, c)
        let uris = output.split(separator: "\n").filter { !$0.hasPrefix("#") }
        XCTAssertEqual(uris.count, 3)
        for uri in uris { XCTAssertTrue(uri.hasPrefix(gatewayBase + "/"), "\(uri)") }
        XCTAssertFalse(output.contains("example.test"), "no upstream URL reaches playbin3")
        XCTAssertTrue(output.hasSuffix("#EXT-X-ENDLIST\n"))
        XCTAssertTrue(output.contains("#EXT-X-MEDIA-SEQUENCE:7\n#EXTINF:2.0,\n"), "tags as they were")
        // Each route is a resource of the item under this playlist, for its own upstream URL.
        for (uri, upstream) in zip(uris, ["https://cdn.example.test/show/seg7.ts", "https://cdn.example.test/show/seg8.ts", "https://other.example.test/seg9.ts"]) {
            let path = String(uri.dropFirst(gatewayBase.count))
            let (id, index) = try XCTUnwrap(registry.parse(path: path))
            XCTAssertEqual(registry.resource(item: id, index: index)?.1.url.absoluteString, upstream)
        }
    }

    // MARK: DASH

    let mpd = """
        <?xml version="1.0"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT4S" minBufferTime="PT2S">
          <Period><AdaptationSet mimeType="video/mp4">
            <SegmentTemplate timescale="1000" duration="2000" startNumber="1" initialization="v/init.mp4" media="v/$Number$.m4s"/>
            <Representation id="v1" bandwidth="500000" width="640" height="360" codecs="avc1.64001e"/>
          </AdaptationSet></Period>
        </MPD>
        """

    func testManifestBoundsRefuseANumberOutOfBoundsAndPassTheRest() async throws {
        let (c, _) = context()
        let fine = try await ManifestBounds().repair(mpd, c)
        XCTAssertEqual(fine, mpd)
        for bad in [#"startNumber="9223372036854775807""#, #"duration="1e-300""#, #"timescale="0""#] {
            let text = mpd.replacingOccurrences(of: bad.hasPrefix("startNumber") ? #"startNumber="1""# : bad.hasPrefix("duration") ? #"duration="2000""# : #"timescale="1000""#, with: bad)
            do {
                _ = try await ManifestBounds().repair(text, c)
                XCTFail("\(bad) passed")
            } catch is DASHManifestRewriter.Failure {}
        }
    }

    func testServerClockIsMeasuredForALiveItemOnlyAndTheTextPasses() async throws {
        let measured = Mutex(0)
        let repair = ServerClock(measure: { _, _, _ in measured.withLock { $0 += 1 } })
        var item = GatewayItem(url: URL(string: "https://cdn.example.test/live/stream.mpd")!)
        let (vod, _) = context(item)
        let a = try await repair.repair(mpd, vod)
        XCTAssertEqual(measured.withLock { $0 }, 0)
        item.live = LiveStream(program: nil)
        let (live, _) = context(item)
        let b = try await repair.repair(mpd, live)
        XCTAssertEqual(measured.withLock { $0 }, 1)
        XCTAssertEqual(a, mpd)
        XCTAssertEqual(b, mpd)
    }

    func testManifestRoutesSendTheSegmentsDirectoryThroughTheGateway() async throws {
        let item = GatewayItem(url: URL(string: "https://cdn.example.test/vod/stream.mpd")!)
        let (c, registry) = context(item)
        let output = try await ManifestRoutes(registry: registry, baseURL: gatewayBase).repair(mpd, c)
        XCTAssertFalse(output.contains("example.test"), output)
        let baseURL = try XCTUnwrap(output.range(of: ">http://").map { output[output.index(after: $0.lowerBound)...].prefix(while: { $0 != "<" }) })
        XCTAssertTrue(baseURL.hasPrefix(gatewayBase + "/"), String(baseURL))
        XCTAssertTrue(output.contains(#"media="v/$Number$.m4s""#), "templates stay relative to the routed directory")
        XCTAssertTrue(output.contains("<BaseURL"))
        let (id, directory, rest) = try XCTUnwrap(registry.parseDirectory(path: String(baseURL.dropFirst(gatewayBase.count)) + "v/1.m4s"))
        XCTAssertEqual(rest, "v/1.m4s")
        XCTAssertEqual(registry.resource(item: id, index: directory)?.1.url.absoluteString, "https://cdn.example.test/vod/")
    }

    // MARK: Media

    func testWebVTTSegmentsEndWithABlankLine() throws {
        let (c, _) = context(GatewayItem(url: URL(string: "https://cdn.example.test/subs/en.m3u8")!))
        var vtt = c
        vtt.base = URL(string: "https://cdn.example.test/subs/seg1.vtt")!
        let repair = WebVTTSegmentEnds()
        XCTAssertTrue(repair.applies(to: vtt, kind: .segment, contentType: ""))
        XCTAssertTrue(repair.applies(to: c, kind: .segment, contentType: "text/vtt"))
        XCTAssertFalse(repair.applies(to: c, kind: .segment, contentType: "video/mp2t"))
        let cut = Array("WEBVTT\n\n00:00.000 --> 00:01.000\nHello".utf8)
        XCTAssertEqual(repair.repair(cut, vtt).map { String(decoding: $0, as: UTF8.self) }, "WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n\n")
        XCTAssertNil(repair.repair(Array("WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n\n".utf8), vtt), "an ended one passes as it is")
        var relayed = vtt.item
        relayed.rewritesPlaylists = false
        var plain = vtt
        plain.item = relayed
        XCTAssertFalse(repair.applies(to: plain, kind: .segment, contentType: "text/vtt"), "a list Reel expands itself is relayed as it is")
    }

    func testABarePackedAudioSegmentGetsItsTimestampFirst() async throws {
        let clock = PackedAudioClock()
        var (c, _) = context()
        c.base = URL(string: "https://cdn.example.test/show/audio/index.m3u8")!
        _ = try await PackedAudioTimes(clock: clock).repair(media, c)
        var segment = c
        segment.base = URL(string: "https://cdn.example.test/moved/seg8.ts")!  // redirected
        segment.listed = URL(string: "https://cdn.example.test/show/audio/seg8.ts")!
        let repair = PackedAudioTimestamps(clock: clock)
        XCTAssertTrue(repair.applies(to: segment, kind: .segment, contentType: "audio/aac"))
        XCTAssertFalse(repair.applies(to: segment, kind: .variant, contentType: "audio/aac"))
        var ranged = segment
        ranged.request.headers.add(name: "Range", value: "bytes=0-99")
        XCTAssertFalse(repair.applies(to: ranged, kind: .segment, contentType: "audio/aac"), "whole answers only")
        let adts: [UInt8] = [0xFF, 0xF1, 0x50, 0x80, 0x02, 0x1F, 0xFC] + Array(repeating: 0, count: 9)
        let tagged = try XCTUnwrap(repair.repair(adts, segment))
        XCTAssertEqual(tagged, PackedAudioTimestamp.tag(start: 2.0) + adts)
        XCTAssertEqual(Array(tagged.prefix(3)), Array("ID3".utf8))
        XCTAssertNil(repair.repair(tagged, segment), "one with its ID3 tag passes as it is")
        XCTAssertNil(repair.repair(Array(repeating: 0x47, count: 188), segment), "MPEG-TS passes as it is")
    }

    // MARK: The relay's reading

    func testTheFormOfAnAnswerByItsHeadElseItsBytes() {
        let rows: [(String, String, HLSURIKind?, AnswerForm?)] = [
            ("application/dash+xml", "", nil, .manifest), ("", "MPD", nil, .manifest),
            ("application/vnd.apple.mpegurl", "", nil, .playlist), ("audio/x-mpegurl", "txt", nil, .playlist),
            ("", "m3u8", nil, .playlist), ("", "M3U", nil, .playlist), ("text/plain", "", .variant, .playlist),
            ("video/mp2t", "ts", .segment, nil), ("", "", nil, nil),
        ]
        for (type, ext, kind, form) in rows {
            XCTAssertEqual(AnswerForm.of(contentType: type, pathExtension: ext, kind: kind), form, "\(type) .\(ext) \(String(describing: kind))")
        }
        XCTAssertEqual(AnswerForm.sniffed(ByteBuffer(string: "#EXTM3U\n#EXTINF:2,\na.ts\n")), .playlist)
        XCTAssertEqual(AnswerForm.sniffed(ByteBuffer(string: "<?xml version=\"1.0\"?>\n<MPD xmlns=\"urn:mpeg:dash:schema:mpd:2011\">")), .manifest)
        XCTAssertEqual(AnswerForm.sniffed(ByteBuffer(bytes: [0x47, 0x40, 0x00, 0x10])), .media)
        XCTAssertEqual(AnswerForm.sniffed(nil), .media)
    }

    func testAChainAppliesItsRepairsInOrder() async throws {
        struct Append: TextRepair {
            let mark: String
            var name: String { mark }
            func repair(_ text: String, _ context: RepairContext) async throws -> String { text + mark }
        }
        let (c, _) = context()
        let output = try await TextRepairChain(repairs: [Append(mark: "a"), Append(mark: "b"), Append(mark: "c")]).apply("x", c)
        XCTAssertEqual(output, "xabc")
    }

    func testTheBodyReadAheadIsStreamedOnUnlessReplaced() async throws {
        let response = { HTTPClientResponseBodyMaker.body("#EXTM3U\nabcdef") }
        var body = UpstreamBody(response(), until: .now + .seconds(30))
        let over = try await body.whole(within: 4)
        XCTAssertEqual(over, .tooLarge)
        var streamed = ""
        while let chunk = try await body.next() { streamed += String(buffer: chunk) }
        XCTAssertEqual(streamed, "#EXTM3U\nabcdef", "a body over the bound goes on as it came")
        XCTAssertEqual(body.bytes, 14)
        var whole = UpstreamBody(response(), until: .now + .seconds(30))
        let all = try await whole.whole(within: 100)
        XCTAssertEqual(all.bytes.map { String(decoding: $0, as: UTF8.self) }, "#EXTM3U\nabcdef")
        whole.dropPending()
        let rest = try await whole.next()
        XCTAssertNil(rest)
        var late = UpstreamBody(response(), until: .now - .seconds(1))
        let crawled = try await late.whole(within: 100)
        XCTAssertEqual(crawled, .late)
    }
}

import AsyncHTTPClient

private enum HTTPClientResponseBodyMaker {
    static func body(_ text: String) -> HTTPClientResponse.Body { .bytes(ByteBuffer(string: text)) }
}
