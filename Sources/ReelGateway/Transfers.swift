import Foundation
import NIOCore
import Synchronization

/// The requests the gateway is answering, each stoppable: when its client goes (the player
/// abandoned a segment: a seek, a switch, a timeout of its own) or its item is released, the
/// answer is cancelled, and with it the upstream request (AsyncHTTPClient closes a connection
/// whose body is no longer read). Before, the gateway read abandoned upstream bodies to their
/// end: eight slow ones filled AsyncHTTPClient's per-host pool and a good stream from the same
/// host failed with 502 (issue 28, item 7).
final class Transfers: Sendable {
    private struct State {
        var next = 0
        var byItem: [Int: [Int: StopSignal]] = [:]
    }

    private let state = Mutex(State())

    /// Runs `body` (one request's answer) until it ends, or until `stop` fires (nil then).
    /// `item`: the item the request is for, whose release fires `stop`.
    func run<T: Sendable>(item: GatewayItemID?, stop: StopSignal, _ body: @escaping @Sendable () async throws -> T) async throws -> T? {
        let key: Int? = item.map { id in
            state.withLock { s in
                s.next += 1
                s.byItem[id.rawValue, default: [:]][s.next] = stop
                return s.next
            }
        }
        defer {
            if let key, let id = item {
                state.withLock { s in
                    s.byItem[id.rawValue]?[key] = nil
                    if s.byItem[id.rawValue]?.isEmpty == true { s.byItem[id.rawValue] = nil }
                }
            }
        }
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                await stop.wait()
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Stops every answer under way for `item` (it was released).
    func release(_ item: GatewayItemID) {
        let stops = state.withLock { s in s.byItem.removeValue(forKey: item.rawValue).map { Array($0.values) } ?? [] }
        for stop in stops { stop.fire(.released) }
    }

    /// Answers under way (for tests and `Gateway.activeTransferCount`).
    var count: Int { state.withLock { $0.byItem.values.reduce(0) { $0 + $1.count } } }
}

/// A one-shot signal: fired once (from any thread), awaited by one task. Awaiting ends when it
/// fires or when the awaiting task is cancelled.
final class StopSignal: Sendable {
    enum Reason: Sendable { case clientGone, released, cancelled }

    private struct State {
        var reason: Reason?
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    func fire(_ reason: Reason) {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            guard s.reason == nil else { return nil }
            s.reason = reason
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume()
    }

    var reason: Reason? { state.withLock { $0.reason } }

    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                let now = state.withLock { s -> Bool in
                    if s.reason != nil { return true }
                    s.waiter = c
                    return false
                }
                if now { c.resume() }
            }
        } onCancel: {
            fire(.cancelled)
        }
    }
}

/// Fires the stop signals of a connection's requests when the connection closes (the client
/// went). One callback on the channel's close, however many requests it carries.
final class ConnectionClosing: Sendable {
    private struct State {
        var closed = false
        var current: StopSignal?
    }

    private let state = Mutex(State())

    init(_ channel: Channel) {
        channel.closeFuture.whenComplete { [weak self] _ in self?.closed() }
    }

    /// The signal for the connection's next request (fired at once when it has closed).
    func signal() -> StopSignal {
        let stop = StopSignal()
        let closed = state.withLock { s in
            s.current = stop
            return s.closed
        }
        if closed { stop.fire(.clientGone) }
        return stop
    }

    private func closed() {
        let current = state.withLock { s in
            s.closed = true
            return s.current
        }
        current?.fire(.clientGone)
    }
}
