import Foundation

/// When and how soon to retry an item that failed on the network. Pure, so the rules are tested
/// as a table; the queue controller applies it.
///
/// Retried by default: network failures (refused, reset, cut short) and server errors (5xx) of
/// network items. Timeouts only when asked (`kinds`): a stalled server has already cost the
/// whole network timeout once. Never retried: local files, not-found, not-authorized (the
/// gateway already refreshed the token once), unsupported or corrupt media — retrying those
/// would only delay the clear error.
public struct RetryPolicy: Sendable, Equatable {
    /// Retries after the first failure.
    public var maxRetries: Int
    public var baseDelay: Double
    public var maxDelay: Double
    public var multiplier: Double
    /// The error kinds worth another try.
    public var kinds: Set<PlaybackErrorKind>

    public init(maxRetries: Int = 2, baseDelay: Double = 0.5, maxDelay: Double = 8, multiplier: Double = 2,
                kinds: Set<PlaybackErrorKind> = RetryPolicy.defaultKinds) {
        self.kinds = kinds
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.multiplier = multiplier
    }

    public static let none = RetryPolicy(maxRetries: 0)

    public static let defaultKinds: Set<PlaybackErrorKind> = [.network, .serverError]
    /// Every kind that can make sense to retry (`kinds` may add `.timeout`).
    public static let retryableKinds: Set<PlaybackErrorKind> = [.network, .timeout, .serverError]

    /// Whether to retry after failure number `failures` (1 for the first failure).
    public func shouldRetry(_ error: PlaybackError, failures: Int, isNetworkItem: Bool) -> Bool {
        isNetworkItem && failures <= maxRetries && kinds.contains(error.kind) && Self.retryableKinds.contains(error.kind)
    }

    /// Seconds to wait before retry number `retry` (1-based): exponential, capped. A `jitter` in
    /// (0, 1] spreads the retries of many clients over the upper half of the interval; 0 gives
    /// the plain value.
    public func delay(beforeRetry retry: Int, jitter: Double = 0) -> Double {
        let capped = min(maxDelay, baseDelay * pow(multiplier, Double(max(0, retry - 1))))
        return jitter <= 0 ? capped : capped * (0.5 + 0.5 * min(jitter, 1))
    }
}
