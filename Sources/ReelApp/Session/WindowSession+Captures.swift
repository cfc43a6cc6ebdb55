import Foundation
import ReelCore

/// Frame and window captures (`s`, Ctrl+S) written to `captureDirectory`.
extension WindowSession {
    /// Named like every other capture (`CaptureFileName.defaultTemplate`: index, title, position;
    /// `-window` for the window), so `s`, Ctrl+S, the socket and `--screenshot-at` agree.
    func capturePath(kind: String) -> URL {
        try? FileManager.default.createDirectory(at: captureDirectory, withIntermediateDirectories: true)
        let title = CaptureFileName.title(for: player.currentURI ?? "reel", tagTitle: player.mediaInfo.title)
        let template = CaptureFileName.defaultTemplate
        let name = kind == "window"
            ? (try? CaptureFileName.renderWindow(template, index: controller?.currentIndex, title: title, position: player.position))
            : (try? CaptureFileName.render(template, index: controller?.currentIndex, title: title, position: player.position))
        return captureDirectory.appendingPathComponent(name ?? "reel-\(kind).png")
    }

    func saveCapture(_ png: Data, kind: String) {
        let url = capturePath(kind: kind)
        do {
            try png.write(to: url)
            lastCapture = url
        } catch {
            Diagnostics.say(String(format: tr("the capture could not be written to %@: %@"), url.path, error.localizedDescription))
        }
    }
}
