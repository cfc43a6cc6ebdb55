import Foundation
import ReelCore

/// MPRIS's `mpris:artUrl` is a URL, and an audio file's cover art is bytes inside it: written
/// once per picture to a private folder (`$XDG_RUNTIME_DIR/reel-art`, else the temporary
/// folder's `reel-art-<uid>`, mode 0700; files 0600), as Totem does, so that the desktop's media
/// controls (GNOME Shell, KDE) show it. The same bytes give the same file; the last one is kept
/// in memory so that building Metadata at every event costs one comparison.
final class CoverArtFile {
    private var last: (bytes: Data, url: String)?
    private let directory: URL

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            directory = URL(fileURLWithPath: runtime).appendingPathComponent("reel-art", isDirectory: true)
        } else {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("reel-art-\(getuid())", isDirectory: true)
        }
    }

    /// The file URL of `bytes` (written if it is not there yet), nil when it cannot be written.
    func url(for bytes: Data?) -> String? {
        guard let bytes, !bytes.isEmpty else { return nil }
        if let last, last.bytes == bytes { return last.url }
        let file = directory.appendingPathComponent(Self.name(for: bytes))
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            // Only a folder of our own, not one somebody else made for us to write into.
            let attributes = try manager.attributesOfItem(atPath: directory.path)
            guard (attributes[.ownerAccountID] as? NSNumber)?.uint32Value == getuid(),
                  (attributes[.type] as? FileAttributeType) == .typeDirectory else { return nil }
            try? manager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
            if !manager.fileExists(atPath: file.path) {
                guard manager.createFile(atPath: file.path, contents: bytes, attributes: [.posixPermissions: 0o600]) else { return nil }
            }
        } catch {
            return nil
        }
        last = (bytes, file.absoluteString)
        return file.absoluteString
    }

    /// A name from the bytes (FNV-1a, 64 bits) with the picture's own extension.
    static func name(for bytes: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let ext: String
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { ext = "png" }
        else if bytes.starts(with: [0xFF, 0xD8]) { ext = "jpg" }
        else if bytes.starts(with: Array("GIF8".utf8)) { ext = "gif" }
        else if bytes.count > 12, bytes.starts(with: Array("RIFF".utf8)), bytes[bytes.startIndex + 8 ..< bytes.startIndex + 12].elementsEqual("WEBP".utf8) { ext = "webp" }
        else { ext = "img" }
        return String(format: "%016llx.%@", hash, ext)
    }
}
