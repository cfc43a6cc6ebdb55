import ReelCore

/// The player's own properties and commands (the volume, the mute, the speed, frame steps, the
/// live edge), and the one place its features' declarations reach the session: `declare(into:)`
/// puts every property and command the player and its features own into the session's registry.
extension Player {
    /// Declares the player's and its features' properties and commands (once per session).
    public func declare(into registry: IPCCommandRegistry) {
        registry.properties.declare("Player", ownProperties)
        for (name, run) in ownCommands { registry.register(name, run) }
        for feature in features.all {
            let owner = String(describing: type(of: feature))
            registry.properties.declare(owner, feature.properties(host: self))
            for (name, run) in feature.commands(host: self) { registry.register(name, run) }
        }
    }

    private var ownProperties: [Property] {
        [
            .flag("mute", "The sound is muted.", get: { $0.muted }) { self.isMuted = $0 },
            .number("speed", .rate, "The playback rate: 1/64 to 64 in size (negative: backwards).", aliases: ["rate"],
                    get: { $0.rate }) { r in
                guard self.setRate(r) else { throw IPCError(.unavailable, "The rate \(r) was refused (nothing loaded yet, or the source cannot play at it).") }
            },
        ]
    }

    private var ownCommands: [(name: String, run: IPCCommandRegistry.Command)] {
        func noArguments(_ name: String, _ run: @escaping @MainActor () throws -> Void) -> (name: String, run: IPCCommandRegistry.Command) {
            (name, { args in
                guard args.isEmpty else { throw IPCError(.invalidArgument, "“\(name)” takes 0 argument(s), got \(args.count).") }
                try run()
                return .null
            })
        }
        return [
            noArguments("frame-step") { try self.frameStepCommand(forward: true) },
            noArguments("frame-back-step") { try self.frameStepCommand(forward: false) },
            noArguments("live-edge") {
                guard self.canGoLive else { throw IPCError(.unavailable, "The item is not live (or has no seekable window yet).") }
                self.seekToLiveEdge()
            },
        ]
    }

    private func frameStepCommand(forward: Bool) throws {
        guard isPrerolled else { throw IPCError(.unavailable, "Nothing has started playing yet: there is no frame to step from.") }
        stepFrame(forward: forward)
    }
}
