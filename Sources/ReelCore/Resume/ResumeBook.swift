import Foundation

/// Resume positions (and the tracks, subtitle delay and speed chosen) by `ResumeKey`, newest first, at most `capacity` of them; read from and written
/// to JSON (`{"version":1,"entries":[{"key":…,"position":…,"duration":…,"saved":…}]}`). Reading
/// never fails: a damaged or foreign file is an empty book, unusable entries are skipped.
public struct ResumeBook: Equatable, Sendable {
    /// What else the item was left with, as mpv's watch-later keeps it (issue 60): the audio and
    /// subtitle tracks chosen (by language and title, their index among the tracks of that kind
    /// breaking ties; subtitles -1: none), the subtitle and audio delays, the speed, the volume
    /// when it was changed and the A-B loop. nil: not known (an older book), or as it was.
    public struct Settings: Equatable, Sendable {
        public var audioTrack: Int?
        public var subtitleTrack: Int?
        public var subtitleDelay: Double?
        public var speed: Double?
        public var audioLanguage: String?
        public var audioTitle: String?
        public var subtitleLanguage: String?
        public var subtitleTitle: String?
        public var audioDelay: Double?
        /// Linear, 0…10 (playbin's); kept only when the user changed it.
        public var volume: Double?
        public var abLoop: ABLoop?

        public init(audioTrack: Int? = nil, subtitleTrack: Int? = nil, subtitleDelay: Double? = nil, speed: Double? = nil,
                    audioLanguage: String? = nil, audioTitle: String? = nil, subtitleLanguage: String? = nil, subtitleTitle: String? = nil,
                    audioDelay: Double? = nil, volume: Double? = nil, abLoop: ABLoop? = nil) {
            self.audioTrack = audioTrack; self.subtitleTrack = subtitleTrack; self.subtitleDelay = subtitleDelay; self.speed = speed
            self.audioLanguage = audioLanguage; self.audioTitle = audioTitle
            self.subtitleLanguage = subtitleLanguage; self.subtitleTitle = subtitleTitle
            self.audioDelay = audioDelay; self.volume = volume; self.abLoop = abLoop
        }

        /// Read back from an entry, each value within its bounds or left out.
        init(_ e: [String: Any]) {
            func number(_ key: String) -> Double? { (e[key] as? NSNumber).map(\.doubleValue).flatMap { $0.isFinite ? $0 : nil } }
            func text(_ key: String) -> String? { (e[key] as? String).flatMap { $0.isEmpty || $0.count > 200 ? nil : $0 } }
            audioTrack = number("audio").flatMap { BoundedNumber.wholeNumber($0, in: 0...999) }
            subtitleTrack = number("subtitle").flatMap { $0 == -1 ? -1 : BoundedNumber.wholeNumber($0, in: 0...999) }
            subtitleDelay = number("subDelay").flatMap { (-600...600).contains($0) ? $0 : nil }
            speed = number("speed").flatMap { BoundedNumber.isPlayableRate($0) ? $0 : nil }
            audioLanguage = text("audioLang"); audioTitle = text("audioTitle")
            subtitleLanguage = text("subLang"); subtitleTitle = text("subTitle")
            audioDelay = number("audioDelay").flatMap { (-600...600).contains($0) ? $0 : nil }
            volume = number("volume").flatMap { (0...10).contains($0) ? $0 : nil }
            let a = number("abA").flatMap { $0 >= 0 ? $0 : nil }, b = number("abB").flatMap { $0 >= 0 ? $0 : nil }
            abLoop = a == nil && b == nil ? nil : ABLoop(a: a, b: b)
        }

        var json: [String: Any] {
            func rounded(_ v: Double, _ scale: Double = 1000) -> Double { (v * scale).rounded() / scale }
            var out: [String: Any] = [:]
            if let audioTrack { out["audio"] = audioTrack }
            if let subtitleTrack { out["subtitle"] = subtitleTrack }
            if let subtitleDelay { out["subDelay"] = rounded(subtitleDelay) }
            if let speed { out["speed"] = rounded(speed, 1e6) }
            if let audioLanguage { out["audioLang"] = audioLanguage }
            if let audioTitle { out["audioTitle"] = audioTitle }
            if let subtitleLanguage { out["subLang"] = subtitleLanguage }
            if let subtitleTitle { out["subTitle"] = subtitleTitle }
            if let audioDelay { out["audioDelay"] = rounded(audioDelay) }
            if let volume { out["volume"] = rounded(volume, 1e4) }
            if let a = abLoop?.a { out["abA"] = rounded(a) }
            if let b = abLoop?.b { out["abB"] = rounded(b) }
            return out
        }

        /// Which of `tracks` (one kind's, in order) is the one kept: of those with the same language
        /// and title, else the same language, else the same title, the one at the index it had or
        /// else the first; a track kept without either goes by its index. nil when none fits
        /// (another file under the same name: the preferred languages choose).
        public static func trackIndex(in tracks: [MediaTrack], index: Int?, language: String?, title: String?) -> Int? {
            func same(_ a: String?, _ b: String?) -> Bool { a != nil && a?.lowercased() == b?.lowercased() }
            guard language != nil || title != nil else { return index.flatMap { tracks.indices.contains($0) ? $0 : nil } }
            let tiers: [(MediaTrack) -> Bool] = [
                { (language == nil || same($0.language, language)) && (title == nil || same($0.title, title)) },
                { same($0.language, language) },
                { same($0.title, title) },
            ]
            for fits in tiers {
                let found = tracks.indices.filter { fits(tracks[$0]) }
                if let index, found.contains(index) { return index }
                if let first = found.first { return first }
            }
            return nil
        }
    }

    public struct Entry: Equatable, Sendable {
        public var key: String
        public var position: Double
        public var duration: Double
        /// Seconds since 1970.
        public var saved: Double
        public var settings = Settings()

        public init(key: String, position: Double, duration: Double, saved: Double, settings: Settings = Settings()) {
            self.key = key; self.position = position; self.duration = duration; self.saved = saved; self.settings = settings
        }
    }

    public static let capacity = 500
    public private(set) var entries: [Entry] = []

    public init() {}

    public func entry(for key: String) -> Entry? { entries.first { $0.key == key } }

    /// Applies a `ResumeRule` decision for `key` (saved at `now`).
    public mutating func apply(_ decision: ResumeRule.Decision, key: String, now: Double, settings: Settings = Settings()) {
        entries.removeAll { $0.key == key }
        guard case .keep(let position, let duration) = decision else { return }
        entries.insert(Entry(key: key, position: position, duration: duration, saved: now, settings: settings), at: 0)
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
            entries.append(Entry(key: key, position: position, duration: duration, saved: saved.isFinite ? saved : 0, settings: Settings(e)))
            if entries.count == Self.capacity { break }
        }
    }

    public func json() -> Data {
        let list: [[String: Any]] = entries.map {
            ["key": $0.key, "position": ($0.position * 1000).rounded() / 1000, "duration": ($0.duration * 1000).rounded() / 1000,
             "saved": $0.saved.rounded()].merging($0.settings.json) { a, _ in a }
        }
        return (try? JSONSerialization.data(withJSONObject: ["version": 1, "entries": list], options: [.sortedKeys])) ?? Data()
    }
}
