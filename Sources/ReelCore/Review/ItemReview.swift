import Foundation

/// A person's judgement of one queue item (`reel review`): a verdict with its note, who gave it
/// and when, and the moments they marked. Written into report.json as the item's `"review"`.
public struct ItemReview: Sendable, Equatable {
    public enum Verdict: String, Sendable, CaseIterable {
        case pass, fail
    }

    /// A timecoded note: the item's position, the wall-clock time on a live stream, and the frame
    /// shown then (a PNG, relative to the review directory).
    public struct Mark: Sendable, Equatable {
        public var time: Double
        public var wallClock: Date?
        public var note: String
        public var frame: String?
        public init(time: Double, wallClock: Date? = nil, note: String, frame: String? = nil) {
            self.time = time; self.wallClock = wallClock; self.note = note; self.frame = frame
        }
    }

    public var verdict: Verdict?
    public var note: String?
    public var reviewer: String?
    public var at: Date?
    public var marks: [Mark]

    public init(verdict: Verdict? = nil, note: String? = nil, reviewer: String? = nil, at: Date? = nil, marks: [Mark] = []) {
        self.verdict = verdict; self.note = note; self.reviewer = reviewer; self.at = at; self.marks = marks
    }

    public var isJudged: Bool { verdict != nil }

    /// The note as it is kept: trimmed, at most `maxNoteLength` characters, control characters
    /// (a pasted newline) as spaces; nil when empty.
    public static func cleanNote(_ text: String?) -> String? {
        guard let text else { return nil }
        let flat = String(text.unicodeScalars.map { CharacterSet.controlCharacters.contains($0) ? " " : Character($0) })
            .trimmingCharacters(in: .whitespaces)
        guard !flat.isEmpty else { return nil }
        return flat.count > maxNoteLength ? String(flat.prefix(maxNoteLength)) + "…" : flat
    }

    public static let maxNoteLength = 2000

    /// A new formatter each time: ISO8601DateFormatter is not Sendable.
    static var iso: ISO8601DateFormatter {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f
    }

    public var json: JSONValue {
        .object([
            ("verdict", verdict.map { .string($0.rawValue) } ?? .null),
            ("note", .optional(note.map(Redactor.redactText))),
            ("reviewer", .optional(reviewer)),
            ("at", .optional(at.map(Self.iso.string(from:)))),
            ("marks", .array(marks.map { m in
                .object([("time", .double((m.time * 1000).rounded() / 1000)), ("wallClock", .optional(m.wallClock.map(Self.iso.string(from:)))),
                         ("note", .string(Redactor.redactText(m.note))), ("frame", .optional(m.frame))])
            })),
        ])
    }

    /// Reads what `json` wrote (from `JSONSerialization`); nil when it is not a review object.
    public static func decode(_ any: Any?) -> ItemReview? {
        guard let o = any as? [String: Any] else { return nil }
        var review = ItemReview()
        if let v = o["verdict"] as? String {
            guard let verdict = Verdict(rawValue: v) else { return nil }
            review.verdict = verdict
        }
        review.note = cleanNote(o["note"] as? String)
        review.reviewer = o["reviewer"] as? String
        review.at = (o["at"] as? String).flatMap(iso.date(from:))
        review.marks = (o["marks"] as? [[String: Any]] ?? []).compactMap { m in
            guard let time = (m["time"] as? NSNumber)?.doubleValue, time.isFinite else { return nil }
            return Mark(time: time, wallClock: (m["wallClock"] as? String).flatMap(iso.date(from:)),
                        note: cleanNote(m["note"] as? String) ?? "", frame: (m["frame"] as? String).flatMap(ReviewBook.safeFramePath))
        }
        return review
    }
}
