import Foundation
import ReelCore

/// The window reopens at the size it was left at (`$XDG_STATE_HOME/reel/window.json`), as Totem
/// and Celluloid do: written when a windowed session ends (not from fullscreen), read when the
/// next one starts; a size out of bounds, or a file that cannot be read, is the default size.
enum WindowSizeMemory {
    static let name = "window.json"
    static let bounds = (width: 320...16_384, height: 200...16_384)

    static func recall(path: String? = StateDirectory.path(name)) -> (width: Int, height: Int)? {
        guard let path, let data = FileManager.default.contents(atPath: path), data.count < 4096,
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let width = object["width"] as? Int, let height = object["height"] as? Int,
              bounds.width.contains(width), bounds.height.contains(height) else { return nil }
        return (width, height)
    }

    static func remember(_ size: (width: Int, height: Int), path: String? = StateDirectory.path(name)) {
        guard let path, bounds.width.contains(size.width), bounds.height.contains(size.height) else { return }
        let text = "{\"width\": \(size.width), \"height\": \(size.height)}\n"
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        try? PrivateFile.write(Data(text.utf8), to: path, mode: 0o600)
    }
}
