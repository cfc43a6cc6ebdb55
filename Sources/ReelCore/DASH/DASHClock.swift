import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A live MPD's clock (ISO/IEC 23009-1 §5.8.4.11, `UTCTiming`): where the server says what time
/// it is, so that a client whose clock is off still reads the live window right. Segments of a
/// dynamic MPD become available at `availabilityStartTime` + their end *on the server's clock*:
/// a desktop 30 s ahead of it asks for segments that do not exist yet, one behind plays further
/// back than it thinks. Reel measures the offset once per item (`LiveStream.clockOffset`), reads
/// the window with it and serves the MPD moved onto the desktop's clock (`DASHManifestRewriter`);
/// until it is measured the timing URLs are routed like any other, so the demuxer's own polls
/// carry the item's header too. Pure.
public enum DASHClock {
    public enum Scheme: String, Sendable, Equatable {
        /// The value is the time itself (when the MPD was made).
        case direct = "urn:mpeg:dash:utc:direct:2014"
        /// A GET whose body is an xs:dateTime.
        case httpXSDate = "urn:mpeg:dash:utc:http-xsdate:2014"
        /// A GET whose body is an ISO 8601 time.
        case httpISO = "urn:mpeg:dash:utc:http-iso:2014"
        /// A HEAD whose `Date` header is the time (RFC 7231, second resolution).
        case httpHead = "urn:mpeg:dash:utc:http-head:2014"
        /// A GET whose body is a 64-bit NTP timestamp (RFC 5905).
        case httpNTP = "urn:mpeg:dash:utc:http-ntp:2014"

        /// Whether the value is a list of URLs to ask (rather than the time, or a host for NTP).
        public var isHTTP: Bool { self != .direct }
    }

    public struct Source: Sendable, Equatable {
        public var scheme: Scheme
        /// The URLs (whitespace-separated in `@value`), or the time for `direct`.
        public var values: [String]
        public init(scheme: Scheme, values: [String]) {
            self.scheme = scheme
            self.values = values
        }
    }

    /// A live MPD's `UTCTiming` sources Reel can read, in the MPD's order (its order of
    /// preference, §5.8.4.11); NTP over UDP and unknown schemes are skipped. None for a static MPD
    /// (nothing in it depends on the clock).
    public static func sources(in text: String) -> [Source] {
        guard let document = try? MPDDocument.parse(text), let root = document.rootElement(), root.localName == "MPD",
              DASHInspection.attribute(root, "type") == "dynamic" else { return [] }
        return sources(root)
    }

    static func sources(_ root: XMLElement) -> [Source] {
        DASHInspection.children(root, "UTCTiming").compactMap { element in
            guard let id = DASHInspection.attribute(element, "schemeIdUri"),
                  let scheme = Scheme(rawValue: id.trimmingCharacters(in: .whitespaces)) ?? legacy(id),
                  let value = DASHInspection.attribute(element, "value") else { return nil }
            let values = scheme == .direct ? [value.trimmingCharacters(in: .whitespacesAndNewlines)]
                                           : value.split(whereSeparator: \.isWhitespace).map(String.init)
            guard let first = values.first, !first.isEmpty else { return nil }
            return Source(scheme: scheme, values: values)
        }
    }

    /// The 2012 spellings some packagers still write.
    private static func legacy(_ id: String) -> Scheme? {
        Scheme(rawValue: id.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ":2012", with: ":2014"))
    }

    /// The server's time from its answer: the body (xs:dateTime, ISO 8601, NTP) or, for
    /// `http-head` or a body that says nothing, the `Date` header.
    public static func serverTime(_ scheme: Scheme, body: Data, dateHeader: String?) -> Date? {
        switch scheme {
        case .direct:
            return DASHLiveWindow.date(String(decoding: body, as: UTF8.self))
        case .httpXSDate, .httpISO:
            let text = String(decoding: body.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return DASHLiveWindow.date(text) ?? dateHeader.flatMap(httpDate)
        case .httpNTP:
            guard body.count == 8 else { return dateHeader.flatMap(httpDate) }
            let bytes = [UInt8](body)
            let seconds = bytes[0..<4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let fraction = bytes[4..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            // NTP counts from 1900: 2,208,988,800 s before the Unix epoch.
            return Date(timeIntervalSince1970: Double(seconds) - 2_208_988_800 + Double(fraction) / 4_294_967_296)
        case .httpHead:
            return dateHeader.flatMap(httpDate)
        }
    }

    /// Seconds the server's clock is ahead of ours (negative: behind): its time against the
    /// middle of the request (when it most likely read its clock, as dash.js and dashdemux2 take it).
    public static func offset(server: Date, sent: Date, received: Date) -> Double {
        server.timeIntervalSince(sent) - received.timeIntervalSince(sent) / 2
    }

    /// An HTTP-date (RFC 7231 §7.1.1.1, IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT").
    public static func httpDate(_ text: String) -> Date? {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return f.date(from: text.trimmingCharacters(in: .whitespaces))
    }
}
