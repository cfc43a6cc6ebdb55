import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ReelCore
import XCTest

/// `DASHManifestRewriter` by table: every way ISO/IEC 23009-1 lets an MPD name a URL (BaseURL at
/// each level, relative, path-absolute, absolute, climbing; SegmentTemplate, SegmentList,
/// SegmentBase, Initialization, RepresentationIndex; Location, PatchLocation) resolves, after the
/// rewrite, to a gateway prefix that maps back to the URL the original would have resolved to.
final class DASHManifestRewriterTests: XCTestCase {
    static let gateway = "http://127.0.0.1:9/k/d/"
    /// Prefixes handed out: gateway prefix → upstream directory.
    final class Routes: @unchecked Sendable {
        var directories: [String: URL] = [:]
        func directory(_ url: URL) -> String? {
            let prefix = DASHManifestRewriterTests.gateway + "\(directories.count)/"
            if let existing = directories.first(where: { $0.value == url }) { return existing.key }
            directories[prefix] = url
            return prefix
        }
        /// What the gateway would fetch for a URL the client resolved.
        func upstream(_ resolved: String) -> String? {
            for (prefix, dir) in directories where resolved.hasPrefix(prefix) { return dir.absoluteString + resolved.dropFirst(prefix.count) }
            return nil
        }
    }

    private func rewrite(_ xml: String, base: String) throws -> (String, Routes) {
        let routes = Routes()
        let out = try DASHManifestRewriter.rewrite(xml, base: URL(string: base)!, directory: routes.directory,
                                                   manifest: { "http://127.0.0.1:9/k/i/1/\($0.lastPathComponent)" })
        return (out, routes)
    }

    /// A client's resolution (§5.6): the first BaseURL of each level, from the MPD's URL down.
    private func resolve(_ xml: String, mpd: String, path: [String], template: String) throws -> String {
        let doc = try XMLDocument(xmlString: xml, options: [])
        var element = try XCTUnwrap(doc.rootElement())
        var base = URL(string: mpd)!
        func applyBase(_ e: XMLElement) {
            if let b = e.elements(forName: "BaseURL").first?.stringValue, let u = URL(string: b, relativeTo: base) { base = u.absoluteURL }
        }
        applyBase(element)
        for name in path {
            element = try XCTUnwrap(element.elements(forName: name).first, name)
            applyBase(element)
        }
        if template.lowercased().hasPrefix("http") { return template }
        if template.hasPrefix("/") { return "\(base.scheme!)://\(base.host!)\(base.port.map { ":\($0)" } ?? "")\(template)" }
        return base.absoluteString.prefix { $0 != "?" }.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/") + "/" + template
    }

    private func attribute(_ xml: String, _ path: [String], _ name: String) throws -> String {
        let doc = try XMLDocument(xmlString: xml, options: [])
        var element = try XCTUnwrap(doc.rootElement())
        for p in path { element = try XCTUnwrap(element.elements(forName: p).first, p) }
        return try XCTUnwrap(element.attributes?.first { $0.localName == name }?.stringValue)
    }

    func testEveryReferenceResolvesThroughTheGatewayToWhereItPointedBefore() throws {
        let mpd = "https://origin.example/vod/show/manifest.mpd?sig=1"
        struct Case { var name: String; var xml: String; var path: [String]; var attribute: String; var expected: String }
        let period = { (inner: String) in
            """
            <?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:cenc="urn:mpeg:cenc:2013" type="static">\(inner)</MPD>
            """
        }
        let cases: [Case] = [
            Case(name: "no BaseURL: the MPD's directory",
                 xml: period(#"<Period><AdaptationSet><Representation id="v1"><SegmentTemplate media="c-$RepresentationID$-$Number%05d$.m4s" initialization="i-$RepresentationID$.m4s"/></Representation></AdaptationSet></Period>"#),
                 path: ["Period", "AdaptationSet", "Representation", "SegmentTemplate"], attribute: "media",
                 expected: "https://origin.example/vod/show/c-$RepresentationID$-$Number%05d$.m4s"),
            Case(name: "relative BaseURLs at every level",
                 xml: period(#"<BaseURL>media/</BaseURL><Period><BaseURL>p1/</BaseURL><AdaptationSet><BaseURL>video/</BaseURL><Representation id="a"><BaseURL>720/</BaseURL><SegmentTemplate media="$Number$.m4s"/></Representation></AdaptationSet></Period>"#),
                 path: ["Period", "AdaptationSet", "Representation", "SegmentTemplate"], attribute: "media",
                 expected: "https://origin.example/vod/show/media/p1/video/720/$Number$.m4s"),
            Case(name: "an absolute BaseURL on a CDN in a Period",
                 xml: period(#"<Period><BaseURL>https://cdn.example/x/</BaseURL><AdaptationSet><SegmentTemplate media="s-$Time$.m4s"/></AdaptationSet></Period>"#),
                 path: ["Period", "AdaptationSet", "SegmentTemplate"], attribute: "media",
                 expected: "https://cdn.example/x/s-$Time$.m4s"),
            Case(name: "a path-absolute template",
                 xml: period(#"<Period><AdaptationSet><SegmentTemplate media="/other/$Number$.m4s"/></AdaptationSet></Period>"#),
                 path: ["Period", "AdaptationSet", "SegmentTemplate"], attribute: "media",
                 expected: "https://origin.example/other/$Number$.m4s"),
            Case(name: "an absolute template",
                 xml: period(#"<Period><AdaptationSet><SegmentTemplate media="https://cdn2.example/a/b/$Bandwidth$/$Number$.m4s"/></AdaptationSet></Period>"#),
                 path: ["Period", "AdaptationSet", "SegmentTemplate"], attribute: "media",
                 expected: "https://cdn2.example/a/b/$Bandwidth$/$Number$.m4s"),
            Case(name: "a climbing template",
                 xml: period(#"<Period><AdaptationSet><SegmentTemplate initialization="../init/$RepresentationID$.mp4"/></AdaptationSet></Period>"#),
                 path: ["Period", "AdaptationSet", "SegmentTemplate"], attribute: "initialization",
                 expected: "https://origin.example/vod/init/$RepresentationID$.mp4"),
            Case(name: "SegmentList",
                 xml: period(#"<Period><AdaptationSet><Representation id="r"><SegmentList><Initialization sourceURL="https://origin.example/i.mp4"/><SegmentURL media="seg1.m4s"/></SegmentList></Representation></AdaptationSet></Period>"#),
                 path: ["Period", "AdaptationSet", "Representation", "SegmentList", "Initialization"], attribute: "sourceURL",
                 expected: "https://origin.example/i.mp4"),
            Case(name: "SegmentList, relative",
                 xml: period(#"<Period><AdaptationSet><Representation id="r"><SegmentList><SegmentURL media="seg1.m4s"/></SegmentList></Representation></AdaptationSet></Period>"#),
                 path: ["Period", "AdaptationSet", "Representation", "SegmentList", "SegmentURL"], attribute: "media",
                 expected: "https://origin.example/vod/show/seg1.m4s"),
        ]
        for c in cases {
            let (out, routes) = try rewrite(c.xml, base: mpd)
            guard let value = try? attribute(out, c.path, c.attribute) else { XCTFail("\(c.name): \(out)"); continue }
            let resolved = try resolve(out, mpd: mpd, path: Array(c.path.dropLast()), template: value)
            XCTAssertTrue(resolved.hasPrefix(Self.gateway), "\(c.name): resolves to \(resolved), not the gateway\n\(out)")
            XCTAssertEqual(routes.upstream(resolved), c.expected, c.name)
            XCTAssertFalse(out.contains("sig=1") && !c.xml.contains("sig=1"), c.name)
        }
    }

    func testSegmentBaseFileLocationAndPatchLocation() throws {
        let xml = """
        <?xml version="1.0"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:scte35="urn:scte:scte35:2013:xml" type="dynamic">
          <Location>https://origin.example/live/manifest.mpd?t=9</Location>
          <PatchLocation ttl="60">patch.mpp</PatchLocation>
          <Period><AdaptationSet><Representation id="v"><BaseURL>video.mp4</BaseURL>
            <SegmentBase indexRange="800-1200"><Initialization range="0-799"/></SegmentBase></Representation></AdaptationSet>
            <scte35:Signal>kept</scte35:Signal></Period>
        </MPD>
        """
        let (out, routes) = try rewrite(xml, base: "https://origin.example/live/manifest.mpd")
        XCTAssertFalse(out.contains("PatchLocation"), "a patch would bypass the rewrite")
        let location = try XMLDocument(xmlString: out, options: []).rootElement()?.elements(forName: "Location").first?.stringValue
        XCTAssertEqual(location, "http://127.0.0.1:9/k/i/1/manifest.mpd", out)
        XCTAssertTrue(out.contains("scte35:Signal") && out.contains("urn:scte:scte35:2013:xml"), "unknown elements and namespaces kept")
        XCTAssertTrue(out.contains("indexRange=\"800-1200\""))
        // The Representation's file resolves under the MPD's (inserted) BaseURL.
        let doc = try XMLDocument(xmlString: out, options: [])
        let top = try XCTUnwrap(doc.rootElement()?.elements(forName: "BaseURL").first?.stringValue)
        XCTAssertEqual(routes.upstream(top + "video.mp4"), "https://origin.example/live/video.mp4")
    }

    /// `UTCTiming` (the server's clock, `DASHClock`): each URL of an HTTP scheme is routed like a
    /// segment (so the demuxer's clock polls carry the header); `direct` holds a time, not a URL.
    func testUTCTimingURLsAreRouted() throws {
        let xml = """
        <?xml version="1.0"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="2026-01-01T00:00:00Z">
          <Period><AdaptationSet><Representation id="v"><SegmentTemplate media="v-$Number$.m4s" duration="2"/></Representation></AdaptationSet></Period>
          <UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-xsdate:2014" value="https://time.example/now?iso https://origin.example/time"/>
          <UTCTiming schemeIdUri="urn:mpeg:dash:utc:direct:2014" value="2026-01-01T00:01:00Z"/>
          <UTCTiming schemeIdUri="urn:mpeg:dash:utc:ntp:2014" value="pool.ntp.org"/>
        </MPD>
        """
        let (out, routes) = try rewrite(xml, base: "https://origin.example/live/manifest.mpd")
        let timings = try XCTUnwrap(XMLDocument(xmlString: out, options: []).rootElement()?.elements(forName: "UTCTiming"))
        XCTAssertEqual(timings.count, 3)
        // (FoundationXML's attribute(forName:) finds nothing in a default namespace.)
        func value(_ e: XMLElement) -> String? { e.attributes?.first { $0.name == "value" }?.stringValue }
        let urls = (value(timings[0]) ?? "").split(separator: " ").map(String.init)
        XCTAssertEqual(urls.map { routes.upstream($0) }, ["https://time.example/now?iso", "https://origin.example/time"], out)
        XCTAssertEqual(value(timings[1]), "2026-01-01T00:01:00Z")
        XCTAssertEqual(value(timings[2]), "pool.ntp.org", "NTP is not HTTP: left alone")
    }

    /// An origin 30 s ahead of our clock: a dynamic MPD is served on ours (its availability and
    /// publish times 30 s earlier; availability then `availabilityGuard` later, so that a segment
    /// is asked for once the packager has written it) without its UTCTiming; a static one is left
    /// as it is.
    func testALiveMPDIsServedOnOurClock() throws {
        let xml = """
        <?xml version="1.0"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="2026-01-01T00:01:00Z" publishTime="2026-01-01T00:02:00.500Z">
          <Period><AdaptationSet><Representation id="v"><SegmentTemplate media="v-$Number$.m4s" duration="2"/></Representation></AdaptationSet></Period>
          <UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-xsdate:2014" value="https://time.example/now"/>
        </MPD>
        """
        let out = try DASHManifestRewriter.rewrite(xml, base: URL(string: "http://o/m.mpd")!, directory: { _ in "http://gw/d/" }, manifest: { _ in nil },
                                                   clockOffset: 30)
        XCTAssertEqual(DASHManifestRewriter.availabilityGuard, 0.5)
        XCTAssertTrue(out.contains(#"availabilityStartTime="2026-01-01T00:00:30.500Z""#), out)
        XCTAssertTrue(out.contains(#"publishTime="2026-01-01T00:01:30.500Z""#), out)
        XCTAssertFalse(out.contains("UTCTiming"), "the demuxer would correct it a second time")
        let vod = try DASHManifestRewriter.rewrite(xml.replacingOccurrences(of: #"type="dynamic""#, with: #"type="static""#),
                                                   base: URL(string: "http://o/m.mpd")!, directory: { _ in "http://gw/d/" }, manifest: { _ in nil }, clockOffset: 30)
        XCTAssertTrue(vod.contains(#"availabilityStartTime="2026-01-01T00:01:00Z""#) && vod.contains("UTCTiming"), vod)
    }

    /// One Representation played alone (`reel check --renditions all`): the others of its
    /// AdaptationSet go, other AdaptationSets (audio) stay.
    func testOneRepresentationIsKeptAlone() throws {
        let xml = """
        <?xml version="1.0"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static"><Period>
          <AdaptationSet contentType="video"><Representation id="lo" bandwidth="1"/><Representation id="hi" bandwidth="2"/></AdaptationSet>
          <AdaptationSet contentType="audio"><Representation id="a" bandwidth="3"/></AdaptationSet>
        </Period></MPD>
        """
        let out = try DASHManifestRewriter.rewrite(xml, base: URL(string: "http://o/m.mpd")!, directory: { _ in "http://gw/d/" }, manifest: { _ in nil },
                                                   representation: "hi")
        XCTAssertFalse(out.contains(#"id="lo""#), out)
        XCTAssertTrue(out.contains(#"id="hi""#) && out.contains(#"id="a""#), out)
        let all = try DASHManifestRewriter.rewrite(xml, base: URL(string: "http://o/m.mpd")!, directory: { _ in "http://gw/d/" }, manifest: { _ in nil })
        XCTAssertTrue(all.contains(#"id="lo""#) && all.contains(#"id="hi""#), "nil keeps them all")
    }

    func testNotAnMPD() {
        XCTAssertThrowsError(try rewrite("<html><body/></html>", base: "https://h/x.mpd")) { XCTAssertEqual($0 as? DASHManifestRewriter.Failure, .notMPD) }
        XCTAssertThrowsError(try rewrite("not xml at all", base: "https://h/x.mpd"))
        XCTAssertTrue(DASHManifestRewriter.looksLikeMPD(bytes: Array("<?xml version=\"1.0\"?>\n<MPD xmlns=\"urn:mpeg:dash:schema:mpd:2011\">".utf8)))
        XCTAssertFalse(DASHManifestRewriter.looksLikeMPD(bytes: Array("#EXTM3U\n".utf8)))
    }

    /// The video Representations as renditions, attributes inherited from the AdaptationSet,
    /// audio and text left out (as ffmpeg's and Shaka's MPDs write them).
    func testVideoRepresentationsAreTheRenditions() {
        let xml = """
        <?xml version="1.0"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static"><Period>
          <AdaptationSet contentType="video" mimeType="video/mp4" frameRate="30000/1001" codecs="avc1.64001f">
            <Representation id="v360" bandwidth="500000" width="640" height="360"/>
            <Representation id="v720" bandwidth="1500000" width="1280" height="720" codecs="avc1.640028"/>
          </AdaptationSet>
          <AdaptationSet contentType="audio" mimeType="audio/mp4"><Representation id="a" bandwidth="96000"/></AdaptationSet>
          <AdaptationSet mimeType="text/vtt"><Representation id="t" bandwidth="256"/></AdaptationSet>
        </Period></MPD>
        """
        let r = DASHManifest.videoRenditions(xml)
        XCTAssertEqual(r.map(\.uri), ["v360", "v720"])
        XCTAssertEqual(r.map(\.bandwidth), [500_000, 1_500_000])
        XCTAssertEqual(r.map { $0.resolution?.height }, [360, 720])
        XCTAssertEqual(r.first?.codecs, ["avc1.64001f"], "inherited")
        XCTAssertEqual(r.last?.codecs, ["avc1.640028"], "its own")
        XCTAssertEqual(r.first?.frameRate ?? 0, 29.97, accuracy: 0.01)
        XCTAssertEqual(DASHManifest.videoRenditions("#EXTM3U\n"), [])
        XCTAssertTrue(DASHManifest.isDASH("https://h/a/manifest.mpd?x=1"))
        XCTAssertFalse(DASHManifest.isDASH("https://h/a/master.m3u8"))
    }

    /// GStreamer 1.22's dashdemux2 seeks a timeline relative to its first segment's start
    /// (`DASHTimelineOrigin`): a dynamic MPD's timeline gets an `S` from 0 in front and one less
    /// `startNumber`, so every real segment keeps its time and its `$Number$`; and the start
    /// distance the gateway gives becomes `suggestedPresentationDelay`. Static MPDs are left.
    func testALiveTimelineStartsAtZeroAndTheStartDistanceIsWritten() throws {
        func mpd(_ type: String, startNumber: String, media: String = "c-$Number%05d$.m4s") -> String {
            """
            <?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="\(type)" suggestedPresentationDelay="PT2S"><Period>\
            <AdaptationSet><Representation id="0" bandwidth="1"><SegmentTemplate timescale="12800" media="\(media)"\(startNumber)>\
            <SegmentTimeline><S t="6220800" d="25600" r="5"/></SegmentTimeline></SegmentTemplate></Representation></AdaptationSet></Period></MPD>
            """
        }
        let base = URL(string: "http://origin/live/manifest.mpd")!
        func rewrite(_ text: String) throws -> String {
            // FoundationXML writes an attribute a line; compared as one line, without the
            // namespace it repeats on added elements.
            let out = try DASHManifestRewriter.rewrite(text, base: base, directory: { _ in "http://gw/d/" }, manifest: { _ in "http://gw/m" }, presentationDelay: 6)
            return out.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
                .replacingOccurrences(of: #" xmlns="urn:mpeg:dash:schema:mpd:2011""#, with: "")
                .replacingOccurrences(of: " />", with: "/>").replacingOccurrences(of: " >", with: ">")
        }
        let live = try rewrite(mpd("dynamic", startNumber: #" startNumber="244""#))
        XCTAssertTrue(live.contains(#"<S t="0" d="6220800"/><S t="6220800" d="25600" r="5"/>"#), live)
        XCTAssertTrue(live.contains(#"startNumber="243""#), live)
        XCTAssertTrue(live.contains(#"suggestedPresentationDelay="PT6.000S""#), live)
        // The numbers the demuxer computes: the added S is 243, the first real one 244 as before.
        let segments = DASHSegments.expand("c-$Number%05d$.m4s", id: "0", bandwidth: 1, number: 244, time: nil)
        XCTAssertEqual(segments, "c-00244.m4s")

        let defaulted = try rewrite(mpd("dynamic", startNumber: ""))
        XCTAssertTrue(defaulted.contains(#"startNumber="0""#), "no startNumber is 1: the added S is 0: \(defaulted)")
        let zero = try rewrite(mpd("dynamic", startNumber: #" startNumber="0""#))
        XCTAssertFalse(zero.contains(#"<S t="0""#), "no number before 0 for $Number$: left as it is")
        let timeBased = try rewrite(mpd("dynamic", startNumber: #" startNumber="0""#, media: "c-$Time$.m4s"))
        XCTAssertTrue(timeBased.contains(#"<S t="0" d="6220800"/>"#), "$Time$ needs no number: \(timeBased)")
        let vod = try rewrite(mpd("static", startNumber: #" startNumber="244""#))
        XCTAssertFalse(vod.contains(#"<S t="0""#), "a static MPD is left as it is")
        XCTAssertTrue(vod.contains(#"startNumber="244""#))
        XCTAssertTrue(vod.contains(#"suggestedPresentationDelay="PT2S""#), "and its delay")
    }

    /// dashdemux2 types a stream by its mimeType alone: an audio AdaptationSet's `video/mp4`
    /// (GStreamer's dashsink writes it) becomes `audio/mp4`; MPEG-TS has one type for both and a
    /// set without `contentType` says nothing, so both are left alone.
    func testAContentTypeWinsOverAContradictingMimeType() throws {
        let text = """
        <?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT6S"><Period>\
        <AdaptationSet contentType="video"><Representation id="v" bandwidth="1" mimeType="video/mp4"/></AdaptationSet>\
        <AdaptationSet contentType="audio" mimeType="video/mp4"><Representation id="a" bandwidth="1" mimeType="video/mp4"/></AdaptationSet>\
        <AdaptationSet contentType="audio"><Representation id="t" bandwidth="1" mimeType="video/mp2t"/></AdaptationSet>\
        <AdaptationSet><Representation id="u" bandwidth="1" mimeType="video/webm"/></AdaptationSet></Period></MPD>
        """
        let out = try DASHManifestRewriter.rewrite(text, base: URL(string: "http://o/m.mpd")!, directory: { _ in "http://gw/d/" }, manifest: { _ in nil })
            .replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
        XCTAssertTrue(out.contains(#"id="v" bandwidth="1" mimeType="video/mp4""#), out)
        XCTAssertTrue(out.contains(#"contentType="audio" mimeType="audio/mp4""#), out)
        XCTAssertTrue(out.contains(#"id="a" bandwidth="1" mimeType="audio/mp4""#), out)
        XCTAssertTrue(out.contains(#"id="t" bandwidth="1" mimeType="video/mp2t""#), "MPEG-TS is left alone: \(out)")
        XCTAssertTrue(out.contains(#"id="u" bandwidth="1" mimeType="video/webm""#), "no contentType, nothing to go by: \(out)")
    }

    /// A live MPD on the origin's own clock (no offset) is asked for `availabilityGuard` late too:
    /// ffmpeg writes a segment 10-20 ms after the MPD says it is complete, and dashdemux2 asked at
    /// that instant (404s in LiveDASHTests on a machine where the write came late).
    func testALiveMPDsSegmentsAreAskedForOnceWritten() throws {
        let xml = """
        <?xml version="1.0"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="2026-01-01T00:01:00Z">
          <Period><AdaptationSet><Representation id="v"><SegmentTemplate media="v-$Number$.m4s" duration="2"/></Representation></AdaptationSet></Period>
        </MPD>
        """
        let out = try DASHManifestRewriter.rewrite(xml, base: URL(string: "http://o/m.mpd")!, directory: { _ in "http://gw/d/" }, manifest: { _ in nil })
        XCTAssertTrue(out.contains(#"availabilityStartTime="2026-01-01T00:01:00.500Z""#), out)
    }
}
