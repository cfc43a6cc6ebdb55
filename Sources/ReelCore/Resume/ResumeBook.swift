import Foundation

/// Resume positions by `ResumeKey`, newest first, at most `capacity` of them; read from and written
/// to JSON (`{"version":1,"entries":[{"key":…,"position":…,"duration":…,"saved":…}]}`). Reading
/// never fails: a damaged or foreign file is an empty book, unusable entries are skipped.
public struct ResumeBook: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public var key: String
        public var position: Double
        public var duration: Double
        /// Seconds since 1970.
        public var saved: Double

        public init(key: String, position: Double, duration: Double, saved: Double) {
            self.key = key; self.position = position; self.duration = duration; self.saved = saved
        }
    }

    public static let capacity = 500
    public private(set) var entries: [Entry] = []

    public init() {}

    public func entry(for key: String) -> Entry? { entries.first { $0.key == key } }

    /// Applies a `ResumeRule` decision for `key` (saved at `now`).
    public mutating func apply(_ decision: ResumeRule.Decision, key: String, now: Double) {
        entries.removeAll { $0.key == key }
        guard case .keep(let position, let duration) = decision else { return }
        entries.insert(Entry(key: key, position: position, duration: duration, saved: now), at: 0)
        if entries.count > Self.capacity { entries.removeLast(entries.count - Self.capacity) }
    }

    public init(json data: Data) {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let list = root["entries"] as? [[String: Any]] else { return }
        var seen = Set<String>()
        for e in list {
            guard let key = e["key"] as? String, !key.isEmpty, ResumeKey.key(for: key) == key, !seen.contains(key),
                  let position = (e["position"] as? NSNumber)?.doubleValue, position.isFinite, position >= 0,
                  let duration = (e["duration"] as? NSNumber)?.doubleValue, duration.isFinite, duration > 0 else { continue }
            let saved = (e["saved"] as? NSNumber)?.doubleValue ?? 0
            seen.insert(key)
            entries.append(Entry(key: key, position: position, duration: duration, saved: saved.isFinite ? saved : 0))
            if entries.count == Self.capacity { break }
        }
    }

    public func json() -> Data {
        let list: [[String: Any]] = entries.map {
            ["key": $0.key, "position": ($0.position * 1000).rounded() / 1000, "duration": ($0.duration * 1000).rounded() / 1000,
             "saved": $0.saved.rounded()]
        }
        return (try? JSONSerialization.data(withJSONObject: ["version": 1, "entries": list], options: [.sortedKeys])) ?? Data()
    }
}
