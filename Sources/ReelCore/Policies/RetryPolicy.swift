import Foundation

/// When and how soon to retry an item that failed on the network. Pure, so the rules are tested
/// as a table; the queue's `RetryScheduler` applies it.
///
/// Retried by default: network failures (refused, reset, cut short) and server errors (5xx) of
/// network items. Timeouts only when asked (`kinds`): a stalled server has already cost the
/// whole network timeout once. Never retried: local files, not-found, not-authorized (the
/// gateway already refreshed the token once), unsupported or corrupt media — retrying those
/// would only delay the clear error.
public struct RetryPolicy: Sendable, Equatable {
    /// How the wait grows from one retry to the next.
    public enum Backoff: Sendable, Equatable {
        /// Media3's default (`DefaultLoadErrorHandlingPolicy`): (n−1) × step before retry n.
        case linear(step: Double)
        /// base × multiplierⁿ⁻¹ before retry n.
        case exponential(base: Double, multiplier: Double)
    }

    /// Retries after the first failure.
    public var maxRetries: Int
    public var backoff: Backoff
    public var maxDelay: Double
    /// The error kinds worth another try.
    public var kinds: Set<PlaybackErrorKind>

    /// Media3's numbers, the one policy for every network failure: retries straight away, then
    /// after 1 s, 2 s, … up to 5 s between tries; 6 retries (Media3 retries at least 3 times,
    /// 6 for live): 15 s in all, enough to ride out a short outage.
    public init(maxRetries: Int = RetryPolicy.defaultRetries, backoff: Backoff = .linear(step: 1), maxDelay: Double = 5,
                kinds: Set<PlaybackErrorKind> = RetryPolicy.defaultKinds) {
        self.kinds = kinds
        self.maxRetries = maxRetries
        self.backoff = backoff
        self.maxDelay = maxDelay
    }

    /// Exponential back-off: `baseDelay` × `multiplier`ⁿ⁻¹ before retry n, capped at `maxDelay`.
    public init(maxRetries: Int, baseDelay: Double, maxDelay: Double, multiplier: Double,
                kinds: Set<PlaybackErrorKind> = RetryPolicy.defaultKinds) {
        self.init(maxRetries: maxRetries, backoff: .exponential(base: baseDelay, multiplier: multiplier), maxDelay: maxDelay, kinds: kinds)
    }

    public static let defaultRetries = 6
    public static let none = RetryPolicy(maxRetries: 0)

    public static let defaultKinds: Set<PlaybackErrorKind> = [.network, .serverError]
    /// Every kind that can make sense to retry (`kinds` may add `.timeout`).
    public static let retryableKinds: Set<PlaybackErrorKind> = [.network, .timeout, .serverError]

    /// Whether to retry after failure number `failures` (1 for the first failure).
    public func shouldRetry(_ error: PlaybackError, failures: Int, isNetworkItem: Bool) -> Bool {
        isNetworkItem && failures <= maxRetries && kinds.contains(error.kind) && Self.retryableKinds.contains(error.kind)
    }

    /// Seconds to wait before retry number `retry` (1-based), capped. A `jitter` in (0, 1] spreads
    /// the retries of many clients over the upper half of the interval; 0 gives the plain value.
    public func delay(beforeRetry retry: Int, jitter: Double = 0) -> Double {
        let n = Double(max(0, retry - 1))
        let plain = switch backoff {
        case .linear(let step): step * n
        case .exponential(let base, let multiplier): base * pow(multiplier, n)
        }
        let capped = min(maxDelay, plain)
        return jitter <= 0 ? capped : capped * (0.5 + 0.5 * min(jitter, 1))
    }
}
