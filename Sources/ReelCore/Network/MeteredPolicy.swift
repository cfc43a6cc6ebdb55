/// What Reel does with network items on a metered connection (`--metered`, `set_property
/// metered-policy`, the window's setting), as PRXPlayer's cellular policy does.
public enum MeteredPolicy: String, Sendable, CaseIterable {
    /// Play as on any network.
    case allow
    /// Play adaptive streams at their lowest rendition (or `--metered-max-bitrate`) while metered.
    case cap
    /// Do not start network items while metered: they fail with `prevented-by-policy`.
    case block

    public static let `default` = MeteredPolicy.cap
}
