import Foundation
import ReelCore

/// The sound output chosen in the window (its "Sound output" menu) is the one the next windowed
/// Reel starts on (`$XDG_STATE_HOME/reel/audio-device`, 0600: mpv's name, `pulse/NAME`, or
/// nothing for the default). `--audio-device` wins; an output that is not there at the start is
/// the default, with a warning (`AudioOutput`).
enum AudioOutputMemory {
    static let name = "audio-device"

    static func recall(path: String? = StateDirectory.path(name)) -> String? {
        guard let path, let data = FileManager.default.contents(atPath: path), data.count < 1024,
              let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
              text.hasPrefix("pulse/"), text.count <= 200, !text.contains(where: { $0.isWhitespace || $0.isNewline }) else { return nil }
        return text
    }

    static func remember(_ device: String, path: String? = StateDirectory.path(name)) {
        guard let path else { return }
        guard device != "auto" else { try? FileManager.default.removeItem(atPath: path); return }
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        try? PrivateFile.write(Data((device + "\n").utf8), to: path, mode: 0o600)
    }
}
