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
        guard let current = try property(name).ipcNumber else {
            throw IPCError(.invalidArgument, "“\(name)” is not a number to add to (cycle it instead).")
        }
        var next = ((current + step) * 1e6).rounded() / 1e6
        switch name {
        case "volume": next = min((target.snapshot.volumeMax * 100).rounded(), max(0, next))
        case "brightness", "contrast", "saturation", "gamma", "hue": next = Double(min(100, max(-100, Int(next.rounded()))))
        case "audio-delay", "sub-delay": next = min(600, max(-600, next))
        case "video-zoom": next = min(VideoGeometry.zoomRange.upperBound, max(VideoGeometry.zoomRange.lowerBound, next))
        case "video-pan-x", "video-pan-y": next = min(VideoGeometry.panRange.upperBound, max(VideoGeometry.panRange.lowerBound, next))
        case "video-rotate": next = Double(((Int(next.rounded()) % 360) + 360) % 360)
        case "sub-pos": next = min(150, max(0, next))
        default: break
        }
        try setProperty(name, next == next.rounded() && ["brightness", "contrast", "saturation", "gamma", "hue", "sub-pos", "chapter"].contains(name) ? .int(Int(next)) : .double(next))
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
