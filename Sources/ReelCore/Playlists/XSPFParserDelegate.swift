import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// SAX-style state for `XSPFParser`: collects tracks as the XML streams past. Used on one thread,
/// for one parse.
final class XSPFParserDelegate: NSObject, XMLParserDelegate {
    struct Track {
        var line: Int
        var location: String?
        var locationLine: Int?
        var title: String?
        var duration: Double?
        var options: [String: [String]] = [:]
        /// The `xml:base` in force for the track (its own, else its trackList's or playlist's,
        /// each resolved against the one outside it), as written; nil: none.
        var base: String?
    }

    private(set) var tracks: [Track] = []
    private(set) var problems: [(Int?, String)] = []
    private(set) var playlistTitle: String?
    private(set) var sawPlaylist = false
    /// The first XML error: its line and what it is. Parsing stops there (libxml2's recovery
    /// mode would otherwise carry on and guess).
    private(set) var error: (line: Int, message: String)?

    private var path: [String] = []
    /// The `xml:base` in force at each open element (nil: none).
    private var bases: [String?] = []
    private var track: Track?
    private var text = ""
    private var extensionApp: String?
    private var optionName: String?

    private static func local(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes: [String: String] = [:]) {
        let name = Self.local(elementName)
        path.append(name)
        let outer = bases.last ?? nil
        if let own = attributes["xml:base"], !own.isEmpty {
            // XML Base: an inner base is a reference resolved against the outer one.
            bases.append(outer.flatMap { URL(string: own, relativeTo: URL(string: $0))?.absoluteString } ?? own)
        } else {
            bases.append(outer)
        }
        text = ""
        if path.count > 64 {
            if error == nil { error = (parser.lineNumber, tr("elements nested more than 64 deep")) }
            parser.abortParsing()
            return
        }
        switch name {
        case "playlist" where path.count == 1:
            sawPlaylist = true
        case "track" where path.dropLast().last == "trackList":
            track = Track(line: parser.lineNumber)
            track?.base = bases.last ?? nil
        case "extension" where track != nil:
            extensionApp = attributes["application"]
        case "option" where extensionApp != nil:
            optionName = attributes["name"]
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        guard error == nil else { return }
        error = (parser.lineNumber, Self.describe(code: (parseError as NSError).code))
        parser.abortParsing()
    }

    /// Words for the libxml2 error codes a broken playlist typically hits.
    static func describe(code: Int) -> String {
        switch code {
        case 4: tr("the document is empty")
        case 5: tr("the document ends early, or has content after its end")
        case 9: tr("a character XML does not allow")
        case 23, 26, 27: tr("an unknown or malformed entity reference (use &amp; for &)")
        case 38, 39, 40, 41: tr("a malformed attribute")
        case 46: tr("a malformed comment")
        case 64, 65: tr("malformed XML declaration")
        case 68: tr("a malformed element name")
        case 73: tr("a “>” is missing")
        case 76: tr("the closing tag does not match the opening tag")
        case 77: tr("an element is not closed")
        default: String(format: tr("malformed XML (libxml2 error %@)"), "\(code)")
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if text.utf8.count < PlaylistText.maxLineBytes { text += string }
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        if text.utf8.count < PlaylistText.maxLineBytes { text += String(decoding: CDATABlock, as: UTF8.self) }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        let name = Self.local(elementName)
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let parent = path.dropLast().last
        defer {
            path.removeLast()
            if !bases.isEmpty { bases.removeLast() }
            text = ""
        }
        if var t = track {
            switch name {
            case "location" where parent == "track":
                if t.location == nil && !value.isEmpty { t.location = value; t.locationLine = parser.lineNumber }
            case "title" where parent == "track":
                t.title = value.isEmpty ? nil : value
            case "duration" where parent == "track":
                if let ms = Double(value), ms.isFinite, ms >= 0 { t.duration = ms > 0 ? ms / 1000 : nil }
                else { problems.append((parser.lineNumber, "<duration> “\(value.prefix(20))” is not milliseconds")) }
            case "option" where extensionApp != nil:
                if extensionApp == PlaylistOptions.xspfApplication {
                    if let n = optionName?.trimmingCharacters(in: .whitespaces).lowercased(), !n.isEmpty {
                        t.options[n, default: []].append(value)
                    } else {
                        problems.append((parser.lineNumber, "<option> without a name attribute; ignored"))
                    }
                } else if extensionApp == PlaylistOptions.vlcApplication, let (n, v) = PlaylistOptions.fromVLC(value) {
                    t.options[n, default: []].append(v)
                }
                optionName = nil
            case "extension" where parent == "track":
                extensionApp = nil
            case "track":
                if t.location == nil { problems.append((t.line, "<track> without a <location>; skipped")) }
                tracks.append(t)
                track = nil
                return
            default:
                break
            }
            track = t
        } else if name == "title" && parent == "playlist" {
            playlistTitle = value.isEmpty ? nil : value
        }
    }
}
