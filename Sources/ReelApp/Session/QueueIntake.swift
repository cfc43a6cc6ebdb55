import Foundation
import ReelCore
import ReelEngine
import ReelGLib

/// Where inputs that arrive while Reel runs join the queue: the control socket's `load`/`append`,
/// MPRIS `OpenUri`, and the window's open and drop. One path, so that the same input is expanded
/// the same way (`QueueBuilder`) and gets the same credentials (`.control`: none of the command
/// line's) whichever way it came. Inputs that need a network fetch (a remote playlist) are
/// expanded on a background thread, so a slow or silent server never holds up the window or the
/// socket's replies; the queue then changes on the main thread. Changes apply in the order they
/// were asked for, fetched or not.
@MainActor
final class QueueIntake {
    enum Placement {
        /// Replace the queue and play its first item.
        case replace
        /// Add at the end; play when the queue was empty.
        case append
        /// Add at the end and play the first added item.
        case appendAndPlay
        /// Add right after the item playing (at the end when none is) and play the first added
        /// item: files another `reel` handed over, as Totem does.
        case playNext
    }

    let controller: QueueSequencer
    /// Told about playlists that could not be read (the window shows them; events carry them).
    var onErrors: ([PlaybackError]) -> Void = { _ in }
    private let builder = DispatchQueue(label: "reel.queue-intake")
    /// Requests handed to `builder` whose results have not been applied yet.
    private var inFlight = 0

    init(controller: QueueSequencer) {
        self.controller = controller
    }

    /// - Parameter options: the items' own options (their own headers: the only credentials an
    ///   item added while Reel runs can have), given to each input that is not a playlist.
    func add(_ inputs: [String], _ placement: Placement, options: [String: [String]] = [:]) {
        let router = controller.gatewayRouter
        guard inFlight > 0 || QueueBuilder.needsNetwork(inputs) else {
            apply(QueueBuilder.build(inputs, arrival: .control, router: router, options: options), placement)
            return
        }
        inFlight += 1
        builder.async {
            let built = QueueBuilder.build(inputs, arrival: .control, router: router, options: options)
            let items = built.items, errors = built.errors
            MainQueue.shared.async { [weak self] in
                guard let self else { return }
                self.inFlight -= 1
                self.apply(QueueBuilder.Result(items: items, errors: errors), placement)
            }
        }
    }

    private func apply(_ built: QueueBuilder.Result, _ placement: Placement) {
        if !built.errors.isEmpty { onErrors(built.errors) }
        switch placement {
        case .replace:
            controller.clear()
            controller.append(built.items)
            controller.play()
        case .append:
            let wasEmpty = controller.queue.isEmpty
            controller.append(built.items)
            if wasEmpty { controller.play() }
        case .appendAndPlay:
            guard let first = built.items.first else { return }
            controller.append(built.items)
            controller.play(first.id)
        case .playNext:
            guard let first = built.items.first else { return }
            controller.insert(built.items, after: controller.queue.currentID)
            controller.play(first.id)
        }
    }
}
