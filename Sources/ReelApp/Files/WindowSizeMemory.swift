import Foundation
import ReelCore

/// The window reopens at the size it was left at (`$XDG_STATE_HOME/reel/window.json`), as Totem
/// and Celluloid do, and on X11 where it was: written when a windowed session ends (not from
/// fullscreen), read when the next one starts; a size out of bounds, or a file that cannot be
/// read, is the default size (a position off the screen is no position: `PlayerWindow.move`).
enum WindowSizeMemory {
    static let name = "window.json"
    static let bounds = (width: 320...16_384, height: 200...16_384)

    struct Kept: Equatable {
        var width: Int
        var height: Int
        /// X11 only.
        var x: Int?
        var y: Int?
    }

    static func recall(path: String? = StateDirectory.path(name)) -> Kept? {
        guard let path, let data = FileManager.default.contents(atPath: path), data.count < 4096,
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let width = object["width"] as? Int, let height = object["height"] as? Int,
              bounds.width.contains(width), bounds.height.contains(height) else { return nil }
        let x = object["x"] as? Int, y = object["y"] as? Int
        return Kept(width: width, height: height, x: y == nil ? nil : x, y: x == nil ? nil : y)
    }

    static func remember(_ size: (width: Int, height: Int), position: (x: Int, y: Int)? = nil, path: String? = StateDirectory.path(name)) {
        guard let path, bounds.width.contains(size.width), bounds.height.contains(size.height) else { return }
        let place = position.map { ", \"x\": \($0.x), \"y\": \($0.y)" } ?? ""
        let text = "{\"width\": \(size.width), \"height\": \(size.height)\(place)}\n"
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        try? PrivateFile.write(Data(text.utf8), to: path, mode: 0o600)
    }
}
