import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The one way Reel parses an MPD's XML. swift-corelibs-foundation's `XMLDocument` dereferences
/// NULL (SIGSEGV in `_CFXMLNodeGetPrivateData`) when libxml2, in the recovering mode it uses,
/// returns no document — an empty body does it, and so does a truncated MPD with a second XML
/// declaration in it (both found by the `dash` fuzz target): a server answering an MPD request
/// with an empty 200 killed Reel in the gateway's rewrite. So the text must first be well-formed
/// XML by `XMLParser` (libxml2's strict SAX parser, which reports instead of crashing).
enum MPDDocument {
    struct NotXML: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    static func parse(_ text: String, options: XMLNode.Options = []) throws -> XMLDocument {
        guard let open = text.firstIndex(of: "<"), text[open...].contains(">") else { throw NotXML(reason: "there is no XML element in it") }
        let check = XMLParser(data: Data(text.utf8))
        // swift-corelibs' `parse()` can say true and still have an error (a truncated document).
        guard check.parse(), check.parserError == nil else {
            throw NotXML(reason: "it is not well-formed XML (\(check.parserError.map { "\($0)" } ?? "no reason given"))")
        }
        return try XMLDocument(xmlString: text, options: options)
    }
}
