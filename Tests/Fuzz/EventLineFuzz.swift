import Foundation
#if canImport(ReelCore)
@testable import ReelCore
#endif

/// The --events wire format: any title, URI or error text makes one line of valid JSON that
/// reads back to the (redacted) values.
enum EventLineFuzz {
    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let line = EventEncoder.line(.itemChanged(index: 3, uri: text, title: text), item: 3, time: 1.5)
        if line.contains("\n") || line.contains("\r") { fuzzFailure("a line break inside one event line") }
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            fuzzFailure("not JSON: \(line.debugDescription)")
        }
        if object["title"] as? String != text { fuzzFailure("title did not round-trip: \(text.debugDescription)") }
        let error = PlaybackError(kind: .network, message: text, debug: text, uri: text)
        let errorLine = EventEncoder.line(.error(error), item: nil, time: 0)
        if (try? JSONSerialization.jsonObject(with: Data(errorLine.utf8))) == nil { fuzzFailure("error line not JSON") }
    }
}
