#if REEL_HAVE_PLAYLIST_PARSER && REEL_HAVE_HLS
import Foundation
#if canImport(ReelCore)
@testable import ReelCore
#endif

/// `reel inspect`'s core, `PlaylistInspection.inspect`, on any bytes at any of a few locations
/// (HLS or queue playlist, network or local, with a token in the URL). Properties: no crash or
/// hang; the JSON is one valid JSON object with a `type`; a registered secret — in the
/// location's query or anywhere in the bytes — appears in neither the JSON nor the text.
enum InspectFuzz {
    static let secret = "s3cr3t-T0KEN-9f8e7d"
    nonisolated(unsafe) static var registered = false
    static let locations = [
        URL(string: "https://example.com/live/master.m3u8?token=\(secret)")!, URL(string: "https://example.com/v/index.m3u8")!,
        URL(string: "https://example.com/lists/a.m3u?sig=\(secret)")!, URL(string: "https://example.com/lists/a.pls")!,
        URL(string: "https://example.com/lists/a.xspf")!, URL(fileURLWithPath: "/home/u/lists/a.m3u"),
        URL(fileURLWithPath: "/home/u/v/index.m3u8"),
    ]

    static func run(_ bytes: [UInt8]) {
        if !registered { Redactor.register(secret: secret); registered = true }
        guard let first = bytes.first else { return }
        let location = locations[Int(first) % locations.count]
        var body = Array(bytes.dropFirst())
        // Now and then the secret is planted in the playlist itself (a URI, a title, an option).
        if first & 0x80 != 0 { body.insert(contentsOf: Array(secret.utf8), at: body.count / 2) }
        let result = PlaylistInspection.inspect(Data(body), location: location)
        let line = result.json.serialized()
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            fuzzFailure("not one JSON object: \(line.prefix(500).debugDescription)")
        }
        if object["type"] as? String == nil { fuzzFailure("no type: \(line.prefix(500).debugDescription)") }
        if line.contains(secret) { fuzzFailure("secret in the JSON: \(line.prefix(2000).debugDescription)") }
        if result.text.contains(secret) { fuzzFailure("secret in the text: \(result.text.prefix(2000).debugDescription)") }
    }
}
#endif
