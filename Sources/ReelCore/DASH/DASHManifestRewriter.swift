import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Rewrites a DASH MPD (ISO/IEC 23009-1) so that every URL a client resolves from it leads back
/// through a gateway, changing only what must change (a real XML parser: namespaces, unknown
/// elements and attributes are kept).
///
/// A client resolves a segment's URL against the chain of `BaseURL`s (MPD, Period,
/// AdaptationSet, Representation; §5.6), the first of each level, the MPD's own URL at the top;
/// `SegmentTemplate` media and initialization templates (`$Number$`, `$Time$`,
/// `$RepresentationID$`, `$Bandwidth$`), `SegmentList`'s `SegmentURL`s, `Initialization` and
/// `RepresentationIndex` resolve against it, `SegmentBase` is the base itself with byte ranges.
/// So a gateway needs no table of segments: `directory` gives it a directory of upstream (a URL
/// ending in `/`) and returns a prefix of its own that stands for it; everything relative under
/// it resolves to the gateway and maps back by appending what follows the prefix. The rewrite:
/// - the MPD's `BaseURL`s, or one inserted when it has none, become the prefixes of their
///   directories (resolved against the MPD's URL), and what follows the directory stays;
/// - absolute and path-absolute URLs at any level (`BaseURL`, the template and list attributes)
///   get the prefix of their own directory (a template's directory is the part before its first
///   `$`); relative ones are left alone, except those that climb (`..`), resolved first;
/// - `Location` (where a live MPD is fetched again) becomes `manifest`'s URL for it, and the
///   URLs of `UTCTiming` (the server's clock, `DASHClock`) are routed as the rest;
///   `PatchLocation` is dropped (a patch would bypass the rewrite);
/// - a dynamic MPD's timelines start at 0 (`DASHTimelineOrigin`, a GStreamer 1.22 workaround),
///   and its `suggestedPresentationDelay` is the one given (Reel's start distance).
public enum DASHManifestRewriter {
    /// The gateway's prefix (ending in `/`) for an upstream directory; nil: leave it as it is.
    public typealias DirectoryRoute = (URL) -> String?
    /// The gateway's URL for an upstream MPD (`Location`).
    public typealias ManifestRoute = (URL) -> String?

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case notXML(String)
        case notMPD
        /// A number out of its bounds (`DASHNumber`): the MPD is refused whole.
        case outOfBounds(String)

        public var description: String {
            switch self {
            case .notXML(let why): "not XML (\(why))"
            case .notMPD: "no MPD element"
            case .outOfBounds(let why): why
            }
        }
    }

    /// Throws `Failure` when `text` is not an MPD Reel can play within its bounds (`DASHNumber`):
    /// what the gateway asks before it reads anything else of a manifest.
    public static func check(_ text: String) throws {
        let document: XMLDocument
        do { document = try MPDDocument.parse(text) } catch { throw Failure.notXML("\(error)") }
        guard let root = document.rootElement(), root.localName == "MPD" else { throw Failure.notMPD }
        if let violation = DASHNumber.violation(in: root) { throw Failure.outOfBounds(violation) }
    }

    /// Attributes that hold a URL or URL template, by element name.
    static let urlAttributes: [String: [String]] = [
        "SegmentTemplate": ["media", "initialization", "index", "bitstreamSwitching"],
        "SegmentURL": ["media", "index"],
        "Initialization": ["sourceURL"],
        "RepresentationIndex": ["sourceURL"],
        "BitstreamSwitching": ["sourceURL"],
    ]

    /// Whether the start of a body is an MPD (before a full parse).
    public static func looksLikeMPD<C: Collection>(bytes: C) -> Bool where C.Element == UInt8 {
        let head = String(decoding: bytes.prefix(1024), as: UTF8.self)
        return head.contains("<MPD") || head.contains(":MPD")
    }

    /// - Parameter presentationDelay: seconds a dynamic MPD's `suggestedPresentationDelay` is
    ///   set to (where the demuxer starts; `DASHLiveWindow.startDistance`), nil to leave it.
    /// - Parameter catchup: a programme to cut a dynamic MPD to, as a static one (`DASHCatchup`).
    /// - Parameter representation: the `@id` of the one Representation its AdaptationSet keeps
    ///   (one rendition played alone, `reel check --renditions all`); nil keeps them all.
    /// - Parameter clockOffset: seconds the origin's clock is ahead of ours (`DASHClock`): a
    ///   dynamic MPD is served on our clock (`availabilityStartTime` and `publishTime` moved back
    ///   by it) without its `UTCTiming` (the demuxer would correct it a second time).
    public static func rewrite(_ text: String, base: URL, directory: DirectoryRoute, manifest: ManifestRoute,
                               presentationDelay: Double? = nil, catchup: (start: Date, end: Date, now: Date)? = nil,
                               representation: String? = nil, clockOffset: Double? = nil, now: Date = Date()) throws -> String {
        let document: XMLDocument
        do { document = try MPDDocument.parse(text, options: [.nodePreserveWhitespace, .nodePreserveCDATA]) } catch {
            throw Failure.notXML("\(error)")
        }
        guard let root = document.rootElement(), root.localName == "MPD" else { throw Failure.notMPD }
        if let violation = DASHNumber.violation(in: root) { throw Failure.outOfBounds(violation) }

        for child in elements(root) {
            switch child.localName {
            case "PatchLocation":
                child.detach()
            case "UTCTiming":
                // The server's clock (`DASHClock`): asked through the gateway, as everything else.
                guard let scheme = attribute(child, "schemeIdUri")?.stringValue.flatMap({ DASHClock.Scheme(rawValue: $0) }), scheme.isHTTP,
                      let value = attribute(child, "value") else { continue }
                let urls = (value.stringValue ?? "").split(whereSeparator: \.isWhitespace).map { url -> String in
                    resolve(String(url), against: base).flatMap { routed($0, directory: directory) } ?? String(url)
                }
                value.stringValue = urls.joined(separator: " ")
            case "Location":
                if let value = child.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines),
                   let url = resolve(value, against: base), let routed = manifest(url) {
                    child.stringValue = routed
                }
            default: break
            }
        }
        // The top of the chain: the MPD's BaseURLs, or one for the MPD's own directory.
        let bases = elements(root).filter { $0.localName == "BaseURL" }
        var top = base
        if bases.isEmpty {
            if let routed = directory(directoryOf(base)) {
                let element = XMLElement(name: "BaseURL", stringValue: routed)
                if let uri = root.uri { element.uri = uri }
                root.insertChild(element, at: 0)
            }
        } else {
            for (i, element) in bases.enumerated() {
                let value = element.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
                guard let url = resolve(value, against: base) else { continue }
                if i == 0 { top = url }
                if let routed = routed(url, directory: directory) { element.stringValue = routed }
            }
        }
        for child in elements(root) where child.localName != "BaseURL" {
            visit(child, base: top, directory: directory)
        }
        if let representation { keepOnly(representation, in: root) }
        // GStreamer 1.22 types a stream by its mimeType alone (`DASHMimeTypeRepair`).
        DASHMimeTypeRepair.apply(to: root)
        // Catchup: the programme as a static MPD (`DASHCatchup`); what follows is for live ones.
        if let catchup { DASHCatchup.apply(to: root, start: catchup.start, end: catchup.end, now: catchup.now) }
        // GStreamer 1.22: a live timeline that starts after 0 is seeked wrong (`DASHTimelineOrigin`).
        DASHTimelineOrigin.apply(to: root)
        if let clockOffset, attribute(root, "type")?.stringValue == "dynamic" { onOurClock(root, offset: clockOffset) }
        if attribute(root, "type")?.stringValue == "dynamic" { delayAvailability(root) }
        // A live timeline's open last run, as many segments as are there now (`DASHOpenRepeats`).
        DASHOpenRepeats.bound(root, now: now)
        if let delay = presentationDelay, attribute(root, "type")?.stringValue == "dynamic" {
            let value = "PT" + String(format: "%.3f", delay) + "S"
            if let existing = attribute(root, "suggestedPresentationDelay") {
                existing.stringValue = value
            } else {
                root.addAttribute(XMLNode.attribute(withName: "suggestedPresentationDelay", stringValue: value) as! XMLNode)
            }
        }
        // As written (no pretty-printing, which would re-indent every element).
        return document.xmlString(options: [.nodePreserveEmptyElements, .nodePreserveNamespaceOrder, .nodePreserveAttributeOrder,
                                            .nodePreserveCDATA, .nodePreserveQuotes, .nodePreserveWhitespace])
    }

    private static func visit(_ element: XMLElement, base: URL, directory: DirectoryRoute) {
        var base = base
        if let names = urlAttributes[element.localName ?? ""] {
            for name in names {
                guard let attribute = attribute(element, name), let value = attribute.stringValue,
                      let rewritten = rewrittenReference(value, base: base, directory: directory) else { continue }
                attribute.stringValue = rewritten
            }
        }
        var first = true
        for child in elements(element) {
            guard child.localName == "BaseURL" else { continue }
            let value = child.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            if let url = resolve(value, against: base), first { base = url }
            if let rewritten = rewrittenReference(value, base: base, directory: directory) { child.stringValue = rewritten }
            first = false
        }
        for child in elements(element) where child.localName != "BaseURL" {
            visit(child, base: base, directory: directory)
        }
    }

    /// A dynamic MPD on our clock: dashdemux2 1.22 chooses where to start by the desktop's clock
    /// before its own `UTCTiming` poll answers, so the MPD it gets says the times on that clock.
    /// How much later than the MPD says a live segment is asked for. dashdemux2 asks for a segment
    /// at the very moment its availability window says it is complete, and packagers write it a
    /// little after that (ffmpeg 5.1: 10–20 ms, measured here): asked for at once, it answered 404
    /// (a gap in playback, and a request an origin logs as an error).
    public static let availabilityGuard = 0.5

    /// A dynamic MPD's `availabilityStartTime`, moved `availabilityGuard` later: every segment is
    /// asked for that much after the MPD says it is there.
    private static func delayAvailability(_ root: XMLElement) {
        guard let node = attribute(root, "availabilityStartTime"), let date = node.stringValue.flatMap(DASHLiveWindow.date) else { return }
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        node.stringValue = iso.string(from: date.addingTimeInterval(availabilityGuard))
    }

    private static func onOurClock(_ root: XMLElement, offset: Double) {
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for name in ["availabilityStartTime", "publishTime"] {
            guard let node = attribute(root, name), let date = node.stringValue.flatMap(DASHLiveWindow.date) else { continue }
            node.stringValue = iso.string(from: date.addingTimeInterval(-offset))
        }
        for timing in elements(root) where timing.localName == "UTCTiming" { timing.detach() }
    }

    /// Removes the other Representations of every AdaptationSet that holds `id` (in each Period).
    private static func keepOnly(_ id: String, in root: XMLElement) {
        for period in elements(root) where period.localName == "Period" {
            for set in elements(period) where set.localName == "AdaptationSet" {
                let reps = elements(set).filter { $0.localName == "Representation" }
                guard reps.contains(where: { attribute($0, "id")?.stringValue == id }) else { continue }
                for rep in reps where attribute(rep, "id")?.stringValue != id { rep.detach() }
            }
        }
    }

    /// A reference that must change: absolute (`http:`), path-absolute (`/x`) or climbing (`..`).
    /// nil: relative, it resolves under the prefix already.
    static func rewrittenReference(_ value: String, base: URL, directory: DirectoryRoute) -> String? {
        let v = value.trimmingCharacters(in: .whitespacesAndNewlines)
        let lower = v.lowercased()
        let absolute = lower.hasPrefix("http://") || lower.hasPrefix("https://")
        guard absolute || v.hasPrefix("/") || v.contains("../") || v == ".." else { return nil }
        // Templates are not URLs yet ("%05d" is not an escape): resolved as text, up to the
        // last "/" before the first "$".
        let templateStart = v.firstIndex(of: "$") ?? v.endIndex
        guard let slash = v[..<templateStart].lastIndex(of: "/") else { return nil }
        let head = String(v[...slash]), tail = String(v[v.index(after: slash)...])
        guard let dir = resolve(head, against: base), let prefix = directory(dir) else { return nil }
        return prefix + tail
    }

    /// `url`'s directory prefix and what follows it.
    private static func routed(_ url: URL, directory: DirectoryRoute) -> String? {
        let dir = directoryOf(url)
        guard let prefix = directory(dir) else { return nil }
        return prefix + String(url.absoluteString.dropFirst(dir.absoluteString.count))
    }

    static func directoryOf(_ url: URL) -> URL {
        let s = url.absoluteString
        let end = s.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? s.endIndex
        guard let slash = s[..<end].lastIndex(of: "/") else { return url }
        return URL(string: String(s[...slash])) ?? url
    }

    static func resolve(_ value: String, against base: URL) -> URL? {
        guard !value.isEmpty else { return base }
        return URL(string: value, relativeTo: base)?.absoluteURL.standardized
    }

    /// An attribute by name. (FoundationXML on Linux: `attribute(forName:)` finds nothing on an
    /// element in a default namespace, which every MPD has.)
    static func attribute(_ element: XMLElement, _ name: String) -> XMLNode? {
        element.attributes?.first { $0.localName == name || $0.name == name }
    }

    private static func elements(_ element: XMLElement) -> [XMLElement] {
        (element.children ?? []).compactMap { $0 as? XMLElement }
    }
}
