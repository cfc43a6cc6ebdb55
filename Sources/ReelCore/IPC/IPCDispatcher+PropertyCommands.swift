import Foundation

/// mpv's property commands, as input.conf binds them: `cycle NAME [up|down]`, `add NAME [STEP]`
/// and what `cycle-values` compares with.
extension IPCDispatcher {
    /// The choices `cycle` goes through, for properties that are not flags.
    static let cycleChoices: [String: [String]] = [
        "aspect": AspectMode.allCases.map(\.rawValue), "loop-file": ["no", "inf"], "loop": PlaybackSnapshot.LoopMode.allCases.map(\.rawValue),
        "hwdec": ["auto", "no"], "metered-policy": ["allow", "cap", "block"],
    ]

    /// mpv's `cycle`: a flag flipped, a choice to its next (or previous) value, a track to the
    /// next, a chapter to the next.
    func cycle(_ name: String, backwards: Bool) throws {
        switch name {
        case "audio-track", "subtitle-track":
            guard target.cycleTrack(name == "audio-track" ? .audio : .subtitle) else { throw IPCError(.unavailable, "There is no track to cycle to.") }
            return
        case "chapter":
            try add(name, backwards ? -1 : 1)
            return
        default: break
        }
        let current = try property(name)
        if let b = current.ipcBool {
            try setProperty(name, .bool(!b))
        } else if let choices = Self.cycleChoices[name] {
            let i = choices.firstIndex { Self.sameValue(.string($0), current) } ?? (backwards ? 0 : choices.count - 1)
            try setProperty(name, .string(choices[(i + (backwards ? choices.count - 1 : 1)) % choices.count]))
        } else {
            throw IPCError(.invalidArgument, "“\(name)” is not a flag or a choice to cycle\(current.ipcNumber != nil ? " (a number: use add)" : "").")
        }
    }

    /// mpv's `add`: a number by a step, kept within what the property takes; a chapter steps.
    func add(_ name: String, _ step: Double) throws {
        if name == "chapter" {
            guard let n = BoundedNumber.wholeNumber(abs(step)), n > 0, target.stepChapter(step < 0 ? -n : n) else {
                throw IPCError(.unavailable, "There is no chapter that way (see “chapter-list”).")
            }
            return
        }
        try change(name, "add") { $0 + step }
    }

    /// mpv's `multiply`: a number by a factor, kept within what the property takes.
    func multiply(_ name: String, _ factor: Double) throws {
        guard name != "chapter" else { throw IPCError(.invalidArgument, "“chapter” is stepped with add, not multiplied.") }
        try change(name, "multiply") { $0 * factor }
    }

    /// The one road of `add` and `multiply`: the property's number changed, then bounded by its
    /// kind (`numberKind`) in floating point before it becomes a whole number (`Int(1e19)` traps).
    private func change(_ name: String, _ verb: String, _ f: (Double) -> Double) throws {
        guard let current = try property(name).ipcNumber else {
            throw IPCError(.invalidArgument, "“\(name)” is not a number to \(verb) (cycle it instead).")
        }
        let raw = f(current)
        guard raw.isFinite else { throw IPCError(.invalidArgument, "“\(verb) \(name)”: the result is not a finite number.") }
        // Six decimals, as mpv prints them (0.1 + 0.2 is 0.3); numbers too large for that stay as they are.
        var next = abs(raw) < 1e9 ? (raw * 1e6).rounded() / 1e6 : raw
        guard let kind = Self.numberKind(name, volumeMax: target.snapshot.volumeMax) else { return try setProperty(name, .double(next)) }
        if kind.wholeNumbers { next = next.rounded() }
        if let period = kind.wraps {
            next = (next.truncatingRemainder(dividingBy: period) + period).truncatingRemainder(dividingBy: period)
        } else {
            next = min(kind.range.upperBound, max(kind.range.lowerBound, next))
        }
        try setProperty(name, kind.wholeNumbers ? .int(Int(next)) : .double(next))
    }

    /// What a numeric property takes, for `add` and `multiply` (`set_property` checks the same
    /// ranges itself): its range, whether only whole numbers, and the period of an angle.
    struct NumberKind {
        var range: ClosedRange<Double>
        var wholeNumbers = false
        var wraps: Double?
    }

    /// Properties not named here are unbounded doubles for `add`; `set_property` checks them
    /// (`BoundedNumber`) before any conversion.
    static func numberKind(_ name: String, volumeMax: Double) -> NumberKind? {
        switch name {
        case "volume": NumberKind(range: 0...(volumeMax * 100).rounded())
        case "brightness", "contrast", "saturation", "gamma", "hue": NumberKind(range: -100...100, wholeNumbers: true)
        case "audio-delay", "sub-delay": NumberKind(range: -600...600)
        case "video-zoom": NumberKind(range: VideoGeometry.zoomRange)
        case "video-pan-x", "video-pan-y": NumberKind(range: VideoGeometry.panRange)
        case "video-rotate": NumberKind(range: 0...359, wholeNumbers: true, wraps: 360)
        case "sub-pos": NumberKind(range: Double(SubtitleStyle.positionRange.lowerBound)...Double(SubtitleStyle.positionRange.upperBound), wholeNumbers: true)
        default: nil
        }
    }

    /// Whether two values are the same for `cycle-values` (numbers by value, words in any case).
    static func sameValue(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if let x = a.ipcNumber ?? a.ipcString.flatMap(Double.init), let y = b.ipcNumber ?? b.ipcString.flatMap(Double.init) { return x == y }
        if let x = a.ipcBool ?? a.ipcString.flatMap({ ["yes": true, "no": false][$0.lowercased()] }),
           let y = b.ipcBool ?? b.ipcString.flatMap({ ["yes": true, "no": false][$0.lowercased()] }) { return x == y }
        if let x = a.ipcString, let y = b.ipcString { return x.lowercased() == y.lowercased() }
        return a == b
    }
}
