import Foundation
#if canImport(ReelCore)
@testable import ReelCore
#endif

/// MediaLocator: whatever a user types or a playlist holds, building a URI, naming it and
/// classifying it never crashes; the URI of a path is a file:// URI that maps back to a path.
enum MediaLocatorFuzz {
    static func run(_ bytes: [UInt8]) {
        let input = String(decoding: bytes, as: UTF8.self)
        guard !input.contains("\0") else { return }
        let uri = MediaLocator.uri(for: input, relativeTo: URL(fileURLWithPath: "/base/dir", isDirectory: true))
        _ = MediaLocator.displayName(of: uri)
        _ = MediaLocator.displayName(of: input)
        _ = MediaLocator.isNetwork(uri)
        _ = MediaLocator.localPath(of: input)
        if !MediaLocator.hasScheme(input) {
            if !uri.hasPrefix("file://") { fuzzFailure("path \(input.debugDescription) became \(uri.debugDescription)") }
            if MediaLocator.localPath(of: uri) == nil { fuzzFailure("no path back from \(uri.debugDescription)") }
        }
    }
}
