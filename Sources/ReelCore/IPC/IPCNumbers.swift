/// The socket's numbers: one rule per quantity, for a command's argument and a property alike
/// (`volume 1e308` and `set_property volume 1e308` get the same answer), each through
/// `BoundedNumber` before any conversion to an integer (`Int(1e300)` traps).
enum IPCNumbers {
    /// The volume in percent: 0–100, up to 1000 amplifies.
    static let volumeRange = 0.0...1000.0

    static func volume(_ value: Double, name: String = "volume") throws -> Double {
        guard value.isFinite, volumeRange.contains(value) else {
            throw IPCError(.invalidArgument, "“\(name)”: 0–100 (up to 1000 amplifies).")
        }
        return value
    }

    /// The subtitles' vertical place, a whole number (`SubtitleStyle.positionRange`).
    static func subtitlePosition(_ value: Double) throws -> Int {
        guard let p = BoundedNumber.wholeNumber(value, in: SubtitleStyle.positionRange) else {
            throw IPCError(.invalidArgument, "“sub-pos” takes a whole number from 0 (top) to 150.")
        }
        return p
    }

}

/// The volume's numbers on the socket: 0–100 %, up to 1000 accepted (then held to `volume-max`).
public enum IPCVolume {
    public static let range = 0.0...1000.0
}
