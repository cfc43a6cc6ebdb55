import Foundation
import ReelCore
import ReelEngine

/// `--screenshot-at T[,T…] --screenshot-dir DIR` while playing: for every item, the frame on
/// screen at each position (seconds, or a percentage of the item's duration) is saved, named with
/// the capture template from the frame's own PTS. The frame is exact: the last one whose
/// timestamp is ≤ T, caught as it passes the video sink (`Player.catchFrames`), so the same
/// command writes the same files with the same names on every run.
@MainActor
final class ScreenshotScheduler {
    private let positions: [CapturePosition]
    private let directory: URL
    private let template: String
    private let player: Player
    private var item: Int?
    private var title = "item"
    /// The current item's targets are set on the catcher (they wait for its duration when a
    /// position is a percentage).
    private var armed = true
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
            save(player.takeCaughtFrames())  // the item before's last ones
            item = index
            title = CaptureFileName.title(for: uri, tagTitle: t == MediaLocator.displayName(of: uri) ? nil : t)
            armed = false
            arm(duration: nil)
        case .duration(let d):
            arm(duration: d)
        case .progress(_, let duration, _, _):
            arm(duration: duration)
            save(player.takeCaughtFrames())
        case .playedToEnd, .error:
            save(player.takeCaughtFrames())
        default:
            break
        }
    }

    /// Sets the item's targets once each can be resolved (a percentage needs the duration);
    /// positions past the item's end are dropped.
    private func arm(duration: Double?) {
        guard !armed else { return }
        let known = duration.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        let needsDuration = positions.contains { if case .percent = $0 { true } else { false } }
        guard known != nil || !needsDuration else { return }
        let targets = positions.compactMap { p -> Double? in
            guard let t = p.resolve(duration: known, lastFrameMargin: 0) else { return nil }
            return known.map { t < $0 ? t : nil } ?? t
        }
        armed = true
        if !player.catchFrames(at: targets) {
            Log.say(tr("screenshot: the video sink cannot be watched; no frames are saved"))
        }
    }

    private func save(_ frames: [(target: Double, frame: Result<CapturedFrame, PlaybackError>)]) {
        for (_, result) in frames {
            switch result {
            case .failure(let e):
                Log.say(String(format: tr("screenshot: %@"), "\(e.message)"))
            case .success(let frame):
                do {
                    let name = try CaptureFileName.render(template, index: item, title: title, position: frame.time ?? 0)
                    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                    let file = directory.appendingPathComponent(name)
                    try frame.png.write(to: file, options: .atomic)
                    written.append(file.path)
                    Log.say("screenshot \(file.path)")
                } catch {
                    Log.say(String(format: tr("screenshot: %@"), "\(error.localizedDescription)"))
                }
            }
        }
    }
}
