import Foundation
import ReelCore

/// mpv's `playlist-clear` (every item but the playing one leaves), `playlist-shuffle` (a new
/// random order, the playing item first) and `playlist-unshuffle` (the order from before the
/// first shuffle), on the socket and in input.conf: commands of their own, registered with the
/// session's registry — no edit to `IPCCommand` or the dispatcher.
@MainActor
enum QueueOrderCommands {
    static func register(in registry: IPCCommandRegistry, sequencer: QueueSequencer) {
        func command(_ name: String, _ run: @escaping @MainActor (QueueSequencer) -> Void) {
            registry.register(name) { [weak sequencer] args in
                guard args.isEmpty else { throw IPCError(.invalidArgument, "“\(name)” takes no argument.") }
                if let sequencer { run(sequencer) }
                return .null
            }
        }
        command("playlist-clear") { $0.clearAllButCurrent() }
        command("playlist-shuffle") { $0.reshuffle() }
        command("playlist-unshuffle") { $0.isShuffled = false }
    }
}
