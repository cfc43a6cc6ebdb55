/// When a position is worth keeping and when a kept one is used. Pure decisions, table-tested.
///
/// - A position under `minimum` seconds is not kept (nothing to resume: the item starts over).
/// - An item is finished at its end, or within `finishedMargin` of its known duration: its entry
///   is removed, so it starts at 0 next time.
/// - Live items and items of unknown length are not kept (there is no place to come back to).
public enum ResumeRule {
    public static let minimum = 1.0
    public static let finishedMargin = 2.0

    public enum Decision: Equatable, Sendable {
        case keep(position: Double, duration: Double)
        case forget
    }

    /// What to do with an item left at `position` (quit, another item loaded, the window closed).
    public static func decide(position: Double, duration: Double?, isLive: Bool, ended: Bool) -> Decision {
        guard !ended, !isLive, let duration, duration.isFinite, duration > 0, position.isFinite else { return .forget }
        guard position >= minimum, position < duration - finishedMargin else { return .forget }
        return .keep(position: position, duration: duration)
    }

    /// Where an item with `entry` starts: its position, unless that is no longer inside the item.
    public static func startPosition(for entry: ResumeBook.Entry, duration: Double?) -> Double? {
        let length = duration ?? entry.duration
        guard entry.position >= minimum, entry.position < length - finishedMargin else { return nil }
        return entry.position
    }
}
