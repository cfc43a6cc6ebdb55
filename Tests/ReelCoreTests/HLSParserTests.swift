import Foundation
import ReelCore
import XCTest

final class HLSParserTests: XCTestCase {
    static let master = """
    #EXTM3U
    #EXT-X-VERSION:6
    #EXT-X-INDEPENDENT-SEGMENTS
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English, main",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="audio/en.m3u8"
    #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC1",INSTREAM-ID="CC1"
    #EXT-X-STREAM-INF:BANDWIDTH=1280000,AVERAGE-BANDWIDTH=1000000,RESOLUTION=640x360,CODECS="avc1.42e01e,mp4a.40.2",FRAME-RATE=29.970,AUDIO="aac",CLOSED-CAPTIONS="cc"
    low/index.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=2560000,RESOLUTION=1280x720,CODECS="avc1.4d401f,mp4a.40.2",AUDIO="aac"
    https://cdn.example.com/high/index.m3u8?sig=abc
    #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=86000,RESOLUTION=640x360,CODECS="avc1.42e01e",URI="low/iframe.m3u8"
    #EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://key-1",KEYFORMAT="com.apple.streamingkeydelivery"

    """

    func testMasterVariantsRenditionsAndIFramePlaylists() throws {
        let master = try XCTUnwrap(HLSPlaylist.parse(Self.master).master)
        XCTAssertEqual(master.version, 6)
        XCTAssertTrue(master.independentSegments)
        XCTAssertEqual(master.variants.count, 2)
        XCTAssertEqual(master.variants[0], HLSVariant(uri: "low/index.m3u8", bandwidth: 1_280_000, averageBandwidth: 1_000_000,
                                                      resolution: HLSResolution(width: 640, height: 360), codecs: ["avc1.42e01e", "mp4a.40.2"],
                                                      frameRate: 29.97, audioGroup: "aac", closedCaptionsGroup: "cc"))
        XCTAssertEqual(master.variants[1].uri, "https://cdn.example.com/high/index.m3u8?sig=abc")
        XCTAssertEqual(master.variants[1].resolution?.description, "1280x720")
        XCTAssertEqual(master.renditions.count, 2)
        XCTAssertEqual(master.renditions[0].name, "English, main")  // a quoted comma stays in the value
        XCTAssertEqual(master.renditions[0].uri, "audio/en.m3u8")
        XCTAssertTrue(master.renditions[0].isDefault)
        XCTAssertNil(master.renditions[1].uri)
        XCTAssertEqual(master.renditions[1].instreamID, "CC1")
        XCTAssertEqual(master.iFramePlaylists.map(\.uri), ["low/iframe.m3u8"])
        XCTAssertTrue(master.iFramePlaylists[0].isIFrameOnly)
        XCTAssertEqual(master.sessionKeys.first?.uri, "skd://key-1")
        XCTAssertEqual(master.allURIs, ["low/index.m3u8", "https://cdn.example.com/high/index.m3u8?sig=abc", "audio/en.m3u8", "low/iframe.m3u8"])
    }

    func testMediaPlaylistWithKeysMapsByteRanges() throws {
        let text = "\u{FEFF}#EXTM3U\r\n#EXT-X-VERSION:7\r\n#EXT-X-TARGETDURATION:2\r\n#EXT-X-MEDIA-SEQUENCE:40\r\n#EXT-X-PLAYLIST-TYPE:VOD\r\n"
            + "#EXT-X-MAP:URI=\"init.mp4\",BYTERANGE=\"720@0\"\r\n"
            + "#EXT-X-KEY:METHOD=AES-128,URI=\"https://keys.example.com/k1?id=1\",IV=0x0000000000000000000000000000002A\r\n"
            + "#EXTINF:2.000,first\r\n#EXT-X-BYTERANGE:1000@720\r\nmain.mp4\r\n"
            + "#EXTINF:2.0,\r\n#EXT-X-BYTERANGE:500\r\nmain.mp4\r\n"
            + "# a comment\r\n\r\n"
            + "#EXT-X-KEY:METHOD=NONE\r\n#EXT-X-DISCONTINUITY\r\n#EXTINF:1.5,\r\nseg 3.ts\r\n#EXT-X-ENDLIST\r\n"
        let media = try XCTUnwrap(HLSPlaylist.parse(text).media)
        XCTAssertEqual(media.version, 7)
        XCTAssertEqual(media.targetDuration, 2)
        XCTAssertEqual(media.mediaSequence, 40)
        XCTAssertEqual(media.playlistType, .vod)
        XCTAssertTrue(media.hasEndList)
        XCTAssertFalse(media.isLive)
        XCTAssertEqual(media.segments.map(\.sequence), [40, 41, 42])
        XCTAssertEqual(media.segments.map(\.duration), [2, 2, 1.5])
        XCTAssertEqual(media.segments[0].title, "first")
        XCTAssertEqual(media.segments[0].byteRange, HLSByteRange(length: 1000, offset: 720))
        XCTAssertEqual(media.segments[1].byteRange, HLSByteRange(length: 500, offset: 1720), "an offset-less range continues the previous one")
        XCTAssertEqual(media.segments[1].byteRange?.httpRange, "bytes=1720-2219")
        XCTAssertEqual(media.segments[0].key?.method, "AES-128")
        XCTAssertEqual(media.segments[0].key?.uri, "https://keys.example.com/k1?id=1")
        XCTAssertEqual(media.segments[0].key?.ivBytes(mediaSequence: 0).last, 0x2A)
        XCTAssertNil(media.segments[2].key, "METHOD=NONE ends encryption")
        XCTAssertTrue(media.segments[2].discontinuity)
        XCTAssertEqual(media.segments[2].uri, "seg 3.ts")
        XCTAssertEqual(media.maps, [HLSMap(uri: "init.mp4", byteRange: HLSByteRange(length: 720, offset: 0))])
        XCTAssertEqual(media.keys.count, 1)
        XCTAssertEqual(media.totalDuration, 5.5)
    }

    func testIVDefaultsToMediaSequence() {
        let key = HLSKey(method: "AES-128", uri: "k")
        XCTAssertEqual(key.ivBytes(mediaSequence: 258), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2])
        XCTAssertEqual(HLSKey(method: "AES-128", uri: "k", iv: "0x01").ivBytes(mediaSequence: 9).last, 1)
    }

    func testLiveAndLowLatency() throws {
        let text = """
        #EXTM3U
        #EXT-X-TARGETDURATION:4
        #EXT-X-PART-INF:PART-TARGET=1.004
        #EXT-X-MEDIA-SEQUENCE:266
        #EXT-X-PROGRAM-DATE-TIME:2026-11-21T08:00:00.000Z
        #EXTINF:4.00008,
        fileSequence266.mp4
        #EXT-X-PART:DURATION=1.00000,INDEPENDENT=YES,URI="filePart267.0.mp4"
        #EXT-X-PART:DURATION=1.00000,URI="filePart267.1.mp4"
        #EXTINF:4.00008,
        fileSequence267.mp4
        #EXT-X-PART:DURATION=1.00000,INDEPENDENT=YES,URI="filePart268.0.mp4"
        #EXT-X-PRELOAD-HINT:TYPE=PART,URI="filePart268.1.mp4"
        #EXT-X-RENDITION-REPORT:URI="../1M/waitForMSN.php",LAST-MSN=273,LAST-PART=2
        """
        let media = try XCTUnwrap(HLSPlaylist.parse(text).media)
        XCTAssertTrue(media.isLive)
        XCTAssertNil(media.playlistType)
        XCTAssertEqual(media.partTargetDuration, 1.004)
        XCTAssertEqual(media.segments.map(\.sequence), [266, 267])
        XCTAssertEqual(media.segments[0].programDateTime, "2026-11-21T08:00:00.000Z")
        XCTAssertEqual(media.segments[1].parts.map(\.uri), ["filePart267.0.mp4", "filePart267.1.mp4"])
        XCTAssertTrue(media.segments[1].parts[0].isIndependent)
        XCTAssertEqual(media.trailingParts.map(\.uri), ["filePart268.0.mp4"])
        XCTAssertEqual(media.preloadHints, [HLSPreloadHint(type: "PART", uri: "filePart268.1.mp4")])
    }

    func testEventPlaylistType() throws {
        let media = try XCTUnwrap(HLSPlaylist.parse("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:EVENT\n#EXTINF:2,\na.ts\n").media)
        XCTAssertEqual(media.playlistType, .event)
        XCTAssertTrue(media.isLive)
    }

    func testOnlyTextThatIsNoPlaylistAtAllIsRefused() {
        for (name, text) in [("empty", ""), ("html", "<html>nope</html>"), ("plain m3u", "a.mp3\nb.mp3\n")] {
            XCTAssertThrowsError(try HLSPlaylist.parse(text), name) { error in
                XCTAssertEqual(error as? HLSParseError, .notAPlaylist, name)
            }
        }
    }

    /// Every deviation is a problem with its line and severity; the playlist still parses.
    func testEveryProblemClassHasItsLineAndSeverity() throws {
        let t = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n"
        let cases: [(String, String, [String])] = [
            ("no target", "#EXTM3U\n#EXTINF:2,\na.ts\n", ["error missing-target-duration"]),
            ("bad target", "#EXTM3U\n#EXT-X-TARGETDURATION:two\n#EXTINF:2,\na.ts\n",
             ["2 error invalid-value", "error missing-target-duration"]),
            ("bad extinf", t + "#EXTINF:abc,\na.ts\n", ["3 error invalid-value", "4 warning uri-without-extinf", "warning empty-playlist"]),
            ("dangling extinf", t + "#EXTINF:2,\na.ts\n#EXTINF:2,\n", ["5 warning dangling-extinf"]),
            ("key without uri", t + "#EXT-X-KEY:METHOD=AES-128\n#EXTINF:2,\na.ts\n", ["3 error missing-uri"]),
            ("bad byterange", t + "#EXT-X-BYTERANGE:x@1\n#EXTINF:2,\na.ts\n", ["3 error invalid-value"]),
            ("impossible byterange", t + "#EXTINF:2,\na.ts\n#EXT-X-BYTERANGE:100\n#EXTINF:2,\nb.ts\n", ["5 error impossible-byte-range"]),
            ("first byterange without offset", t + "#EXT-X-BYTERANGE:100\n#EXTINF:2,\nb.ts\n", ["3 error impossible-byte-range"]),
            ("bad type", t + "#EXT-X-PLAYLIST-TYPE:LIVE\n#EXTINF:2,\na.ts\n", ["3 error invalid-value"]),
            ("segment too long", t + "#EXTINF:2.4,\na.ts\n#EXTINF:2.6,\nb.ts\n", ["5 error segment-too-long"]),
            ("unique tag twice", t + "#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n", ["3 error duplicate-tag"]),
            ("media sequence late", t + "#EXTINF:2,\na.ts\n#EXT-X-MEDIA-SEQUENCE:5\n", ["5 error tag-after-segment"]),
            ("undefined variable", t + "#EXTINF:2,\n{$base}/a.ts\n", ["4 error undefined-variable"]),
            ("empty vod", t + "#EXT-X-ENDLIST\n", ["error empty-playlist"]),
            // Found by the hls fuzz target: a duration past Int.max in a problem's message trapped.
            // Durations past a day are refused where parsed (issue 28: they reached MPRIS's microseconds).
            ("huge duration", "#EXTM3U\n#EXTINF:1e300,\na.ts\n", ["2 error invalid-value", "3 warning uri-without-extinf", "error missing-target-duration", "warning empty-playlist"]),
            ("huge duration, target", t + "#EXTINF:1e300,\na.ts\n", ["3 error invalid-value", "4 warning uri-without-extinf", "warning empty-playlist"]),
            ("empty live", t, ["warning empty-playlist"]),
            ("missing header", "#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n", ["1 error missing-header"]),
            ("comment before header", "# made by an encoder\n#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n", ["2 error header-not-first"]),
            ("variant without uri", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n", ["2 error missing-uri", "error empty-playlist"]),
            ("variant without bandwidth", "#EXTM3U\n#EXT-X-STREAM-INF:RESOLUTION=1x1\nv.m3u8\n", ["2 error missing-attribute"]),
            ("media without name", "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n", ["2 error missing-attribute"]),
        ]
        for (name, text, expected) in cases {
            let result = try HLSPlaylist.parseReporting(text)
            let got = result.problems.map { p in [p.line.map(String.init), p.severity.rawValue, p.code].compactMap { $0 }.joined(separator: " ") }
            XCTAssertEqual(got, expected, "\(name): \(result.problems)")
        }
    }

    /// What other players accept parses, with the values they would use.
    func testLeniencies() throws {
        // A comment before #EXTM3U, blanks in attribute lists, vendor and unknown tags.
        let master = try XCTUnwrap(HLSPlaylist.parse("""
            # generated
            #EXTM3U
            #EXT-X-IMAGE-STREAM-INF:BANDWIDTH=1000,URI="thumbs.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=800000, RESOLUTION=640x360,  CODECS="avc1.4d401e, mp4a.40.2"
            v.m3u8
            #EXT-X-VENDOR-FOO:yes
            """).master)
        XCTAssertEqual(master.variants.count, 1)
        XCTAssertEqual(master.variants[0].resolution, HLSResolution(width: 640, height: 360))
        XCTAssertEqual(master.variants[0].codecs, ["avc1.4d401e", "mp4a.40.2"])
        // No target duration: taken from the longest segment; a trailing #EXTINF is dropped.
        let media = try XCTUnwrap(HLSPlaylist.parse("#EXTM3U\n#EXTINF:3.5,\na.ts\n#EXTINF:2,\n").media)
        XCTAssertEqual(media.targetDuration, 4)
        XCTAssertEqual(media.segments.map(\.uri), ["a.ts"])
    }

    func testVariablesAreDefinedImportedAndTakenFromTheQuery() throws {
        let master = try HLSPlaylist.parseReporting("""
            #EXTM3U
            #EXT-X-DEFINE:NAME="cdn",VALUE="https://cdn.example.com"
            #EXT-X-STREAM-INF:BANDWIDTH=1
            {$cdn}/v/index.m3u8
            """)
        XCTAssertEqual(master.playlist.master?.variants.first?.uri, "https://cdn.example.com/v/index.m3u8")
        XCTAssertEqual(master.problems, [])
        let media = try HLSPlaylist.parseReporting("""
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXT-X-DEFINE:IMPORT="cdn"
            #EXT-X-DEFINE:QUERYPARAM="token"
            #EXT-X-KEY:METHOD=AES-128,URI="{$cdn}/key?t={$token}"
            #EXTINF:2,
            {$cdn}/seg1.ts?t={$token}
            """, url: URL(string: "https://cdn.example.com/v/index.m3u8?token=abc")!, importable: master.variables)
        let segment = try XCTUnwrap(media.playlist.media?.segments.first)
        XCTAssertEqual(segment.uri, "https://cdn.example.com/seg1.ts?t=abc")
        XCTAssertEqual(segment.key?.uri, "https://cdn.example.com/key?t=abc")
        XCTAssertEqual(media.problems, [])
        let unresolved = try HLSPlaylist.parseReporting("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-DEFINE:IMPORT=\"cdn\"\n#EXT-X-DEFINE:QUERYPARAM=\"t\"\n#EXTINF:2,\na.ts\n")
        XCTAssertEqual(unresolved.problems.map(\.code), ["undefined-variable", "unresolved-queryparam"])
        XCTAssertEqual(unresolved.problems.map(\.line), [3, 4])
    }

    func testAttributeListQuotingAndRanges() {
        let text: Substring = #"METHOD=AES-128,URI="a,b=c.key",IV=0x1F , KEYFORMAT="identity""#
        let list = HLSAttributeList(parsing: text)
        XCTAssertEqual(list.attributes.map(\.name), ["METHOD", "URI", "IV", "KEYFORMAT"])
        XCTAssertEqual(list["URI"], "a,b=c.key")
        XCTAssertEqual(list["IV"], "0x1F")
        XCTAssertEqual(String(text[list.attributes[1].valueRange]), "a,b=c.key")
        XCTAssertTrue(list.attributes[1].isQuoted)
        XCTAssertFalse(list.attributes[0].isQuoted)
    }

    func testLooksLikePlaylist() {
        let cases: [(String, Bool)] = [("#EXTM3U\n", true), ("\u{FEFF}#EXTM3U", true), ("\r\n  #EXTM3U", true), ("#EXTINF", false), ("\0\0\0 ftyp", false)]
        for (text, expected) in cases {
            XCTAssertEqual(HLSPlaylist.looksLikePlaylist(Substring(text)), expected, text.debugDescription)
            XCTAssertEqual(HLSPlaylist.looksLikePlaylist(bytes: Array(text.utf8)), expected, text.debugDescription)
        }
    }

    func testLineSplitKeepsTerminators() {
        let lines = HLSLine.split("a\r\nb\n\nc")
        XCTAssertEqual(lines.map { String($0.content) }, ["a", "b", "", "c"])
        XCTAssertEqual(lines.map { String($0.terminator) }, ["\r\n", "\n", "\n", ""])
    }
}
