import ReelCore

/// mpv's A-B loop over the current item (`ABLoop`): `l` sets A, then B, then clears; the socket's
/// `ab-loop-a` / `ab-loop-b`. At every tick past B playback goes back to A (an accurate seek). A
/// new item starts without one (as mpv). Said as an `ab-loop` event when it changes.
@MainActor
final class ABLoopFeature: PlayerFeature {
    private(set) var loop = ABLoop()

    func readout(into snapshot: inout PlaybackSnapshot, host: FeatureHost) { snapshot.abLoop = loop }

    func properties(host: FeatureHost) -> [Property] {
        func point(_ name: String, _ key: WritableKeyPath<ABLoop, Double?>) -> Property {
            .optionalNumber(name, NumberSpec(range: 0...BoundedNumber.maximumSeconds, none: "no", unit: "s"), "The A-B loop's \(name.suffix(1).uppercased()) (no: none).",
                            get: { $0.abLoop[keyPath: key].map(JSONValue.double) ?? .string("no") }) { value in
                var next = self.loop
                next[keyPath: key] = value
                self.set(next, host: host)
            }
        }
        return [point("ab-loop-a", \.a), point("ab-loop-b", \.b)]
    }

    func commands(host: FeatureHost) -> [(name: String, run: IPCCommandRegistry.Command)] {
        [("ab-loop", { args in
            guard args.isEmpty else { throw IPCError(.invalidArgument, "“ab-loop” takes no argument.") }
            self.cycle(host: host)
            return .null
        })]
    }
    func itemStarted(_ item: PlaybackItem, switched: Bool, host: FeatureHost) { set(ABLoop(), host: host) }

    func tick(host: FeatureHost) {
        // The position only when a loop is set: reading it queries the pipeline and becomes the
        // player's last position, and at EOS that query answers the duration (a file cut short
        // then lost its early-end warning under load: EarlyEndTests, BadInputQueueTests).
        guard loop.range != nil, host.intent == .playing, let target = loop.jump(from: host.position) else { return }
        Log.debug(.engine, .info, "ab-loop: at \(host.position) s, back to \(target) s")
        host.seek(to: target, mode: .accurate)
    }

    func set(_ new: ABLoop, host: FeatureHost) {
        guard new != loop else { return }
        loop = new
        host.emit(.abLoop(a: new.a, b: new.b))
    }

    func cycle(host: FeatureHost) {
        var next = loop
        next.cycle(at: host.position)
        set(next, host: host)
    }
}

extension Player {
    /// The A-B loop of the current item (mpv's `ab-loop-a`, `ab-loop-b`).
    public var abLoop: ABLoop { features.first(ABLoopFeature.self)?.loop ?? ABLoop() }

    /// Sets the A-B loop's points (nil clears one).
    public func setABLoop(_ loop: ABLoop) { features.first(ABLoopFeature.self)?.set(loop, host: self) }

    /// `l`: A at the position, then B, then neither.
    public func cycleABLoop() { features.first(ABLoopFeature.self)?.cycle(host: self) }
}
