import Foundation
import ReelCore
import ReelGLib

/// The sequencer's clock in a running session: GLib's main loop (`MainQueue`), which the GTK
/// and headless loops both run.
@MainActor
final class MainQueueClock: SequencerClock {
    var now: Double { ProcessInfo.processInfo.systemUptime }
    func soon(_ work: @escaping @Sendable @MainActor () -> Void) { MainQueue.shared.async(work) }
    func after(_ seconds: Double, _ work: @escaping @Sendable @MainActor () -> Void) { MainQueue.shared.after(seconds, work) }
}
