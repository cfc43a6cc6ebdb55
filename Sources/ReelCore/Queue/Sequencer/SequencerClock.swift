/// The sequencer's only notion of time: "after the event being handled" and "in so many seconds",
/// on the main actor. The app gives one over GLib's main loop (`MainQueueClock`); tests give a
/// manual one (`ManualClock` in ReelTestSupport), so back-offs are tested without waiting.
@MainActor
public protocol SequencerClock: AnyObject {
    /// Monotonic seconds.
    var now: Double { get }
    /// Runs `work` once the current event has been handled by everyone.
    func soon(_ work: @escaping @Sendable @MainActor () -> Void)
    /// Runs `work` after `seconds`.
    func after(_ seconds: Double, _ work: @escaping @Sendable @MainActor () -> Void)
}
