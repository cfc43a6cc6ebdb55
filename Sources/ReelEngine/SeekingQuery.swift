import CGStreamer
import Foundation
import Synchronization

/// The pipeline's seeking query (seekable, and the live window), asked on a thread of its own.
///
/// adaptivedemux2 answers it under its manifest lock, which it holds while it parses a refreshed
/// playlist: a live playlist of 150,000 segments held the main thread (the window, the socket,
/// MPRIS) 6–8 s per query (issue 28, item 9). The main thread waits for the answer at most
/// `patience`; a query the demuxer holds longer finishes on its thread and its answer is kept,
/// and meanwhile the last answer stands. One query at a time: callers during one wait for it.
/// A query that never returns (a deadlocked pipeline) keeps its own thread, nothing else.
final class SeekingQuery: Sendable {
    struct Answer: Equatable, Sendable {
        var seekable: Bool
        /// The seekable window in seconds, when the pipeline has one.
        var range: ClosedRange<Double>?
    }

    private struct State {
        var generation = 0
        var latest: Answer?
        var inFlight = false
        var waiting: [DispatchSemaphore] = []
    }

    private let state = Mutex(State())
    let patience: DispatchTimeInterval

    init(patience: DispatchTimeInterval = .milliseconds(50)) {
        self.patience = patience
    }

    /// The answer, fresh when the pipeline gives it within `patience`, else the last one (nil
    /// before any). `element` is referenced while its query runs.
    func ask(_ element: UnsafeMutablePointer<GstElement>) -> Answer? {
        let done = DispatchSemaphore(value: 0)
        let (start, generation) = state.withLock { s in
            s.waiting.append(done)
            defer { s.inFlight = true }
            return (!s.inFlight, s.generation)
        }
        if start {
            gst_object_ref(element)
            let address = UInt(bitPattern: element)
            // A thread of its own, never one of the shared pool's: a query on a pipeline that
            // deadlocked (one abandoned by a watchdog) never returns, and each such query held a
            // libdispatch worker for good, the workers Swift's tasks (the gateway's) run on too.
            Thread.detachNewThread {
                let element = UnsafeMutablePointer<GstElement>(bitPattern: address)!
                let answer = Self.query(element)
                gst_object_unref(element)
                let waiting = self.state.withLock { s in
                    s.inFlight = false
                    if s.generation == generation { s.latest = answer }
                    defer { s.waiting = [] }
                    return s.waiting
                }
                for w in waiting { w.signal() }
            }
        }
        _ = done.wait(timeout: .now() + patience)
        return state.withLock { s in
            s.waiting.removeAll { $0 === done }
            return s.latest
        }
    }

    /// Forgets the last answer (another item, another pipeline); a query under way for the old
    /// one is not kept.
    func reset() {
        state.withLock { s in
            s.generation += 1
            s.latest = nil
        }
    }

    /// The query itself, on the calling thread.
    static func query(_ element: UnsafeMutablePointer<GstElement>) -> Answer? {
        var seekable: Int32 = 0
        var start = -1, end = -1
        guard reel_query_seeking(element, &seekable, &start, &end) != 0 else { return nil }
        let range = seekable != 0 && start >= 0 && end >= start ? Double(start) / 1e9 ... Double(end) / 1e9 : nil
        return Answer(seekable: seekable != 0, range: range)
    }
}
