import Foundation
import ReelCore
import ReelEngine

/// `--screenshot-at T[,T…] --screenshot-dir DIR` while playing: for every item, the frame on
/// screen is saved when playback passes each position (seconds or a percentage of the item's
/// duration), named with the capture template from the frame's own PTS. Captures land within one
/// progress interval after T; for exact frames use `reel check` or IPC seek + screenshot.
@MainActor
final class ScreenshotScheduler {
    private let positions: [CapturePosition]
    private let directory: URL
    private let template: String
    private let player: Player
    private var item: Int?
    private var title = "item"
    private var pending: [CapturePosition] = []
    private var busy = false
    private(set) var written: [String] = []

    init(positions: [CapturePosition], directory: URL, template: String = CaptureFileName.defaultTemplate, player: Player) {
        self.positions = positions
        self.directory = directory
        self.template = template
        self.player = player
    }

    func handle(_ event: PlayerEvent, item eventItem: Int?) {
        switch event {
        case .itemChanged(let index, let uri, let t):
            item = index
            title = CaptureFileName.title(for: uri, tagTitle: t == MediaLocator.displayName(of: uri) ? nil : t)
            pending = positions
        case .progress(let position, let duration, _):
            guard !busy, let due = pending.firstIndex(where: { ($0.resolve(duration: duration, lastFrameMargin: 0) ?? .infinity) <= position + 0.001 }) else { return }
            pending.remove(at: due)
            capture()
        case .playedToEnd, .error:
            pending = []
        default:
            break
        }
    }

    private func capture() {
        busy = true
        let index = item
        let title = self.title
        player.captureFrameWhenSettled(timeout: 5) { [weak self] result in
            guard let self else { return }
            self.busy = false
            switch result {
            case .failure(let e):
                FileHandle.standardError.write(Data("reel: screenshot: \(e.message)\n".utf8))
            case .success(let frame):
                do {
                    let name = try CaptureFileName.render(self.template, index: index, title: title, position: frame.time ?? self.player.position)
                    try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
                    let file = self.directory.appendingPathComponent(name)
                    try frame.png.write(to: file, options: .atomic)
                    self.written.append(file.path)
                    FileHandle.standardError.write(Data("reel: screenshot \(file.path)\n".utf8))
                } catch {
                    FileHandle.standardError.write(Data("reel: screenshot: \(error.localizedDescription)\n".utf8))
                }
            }
        }
    }
}
