import Foundation

/// Every verdict and mark of one `reel review` of a list, by queue index: what review.json
/// holds (written whole after each change, so a crash loses at most the note being typed), what
/// the same command reads back to resume at the first item not yet judged, and what report.json
/// carries per item. Items are known by index and (redacted) URI: an entry whose URI is not the
/// list's at that index any more is dropped when read back, and said.
public struct ReviewBook: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var index: Int
        /// Redacted (no token): the book may be shared.
        public var uri: String
        public var title: String
        public var review: ItemReview
    }

    public private(set) var entries: [Int: Entry] = [:]

    public init() {}

    public func review(at index: Int) -> ItemReview? { entries[index]?.review }

    /// Records a verdict (an item may be judged again: the new verdict and note replace the old;
    /// its marks stay).
    public mutating func judge(index: Int, uri: String, title: String, verdict: ItemReview.Verdict, note: String?, reviewer: String?, at: Date) {
        var entry = entries[index] ?? Entry(index: index, uri: Redactor.redactURL(uri), title: title, review: ItemReview())
        entry.review.verdict = verdict
        entry.review.note = ItemReview.cleanNote(note)
        entry.review.reviewer = reviewer
        entry.review.at = at
        entries[index] = entry
    }

    public mutating func mark(index: Int, uri: String, title: String, _ mark: ItemReview.Mark) {
        var entry = entries[index] ?? Entry(index: index, uri: Redactor.redactURL(uri), title: title, review: ItemReview())
        entry.review.marks.append(mark)
        entries[index] = entry
    }

    /// The first item of `count` not yet judged, looking from `after` on (then from the start);
    /// nil when every item is judged.
    public func nextUnjudged(after: Int?, count: Int) -> Int? {
        guard count > 0 else { return nil }
        let start = after.map { $0 + 1 } ?? 0
        for k in 0..<count {
            let i = (start + k) % count
            if entries[i]?.review.isJudged != true { return i }
        }
        return nil
    }

    public func judgedCount(of count: Int) -> Int { (0..<count).filter { entries[$0]?.review.isJudged == true }.count }
    public func failedCount(of count: Int) -> Int { (0..<count).filter { entries[$0]?.review.verdict == .fail }.count }
    /// Every one of `count` items judged pass.
    public func allPassed(count: Int) -> Bool { (0..<count).allSatisfy { entries[$0]?.review.verdict == .pass } }

    // MARK: review.json

    public var json: JSONValue {
        .object([
            ("reel", .string("review")),
            ("version", .int(1)),
            ("items", .array(entries.keys.sorted().map { i in
                let e = entries[i]!
                return .object([("index", .int(e.index)), ("uri", .string(e.uri)), ("title", .string(e.title)), ("review", e.review.json)])
            })),
        ])
    }

    public var jsonText: String { json.serialized() + "\n" }

    public struct DecodingError: Error, CustomStringConvertible, Equatable {
        public var description: String
    }

    /// Reads review.json back for the list `uris` (the queue's, in order): entries of another
    /// list (a URI that is not the one at their index) are left out, each said in `dropped`.
    public static func decode(_ data: Data, matching uris: [String]) throws(DecodingError) -> (book: ReviewBook, dropped: [String]) {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any], root["reel"] as? String == "review" else {
            throw DecodingError(description: "not a reel review.json")
        }
        guard (root["version"] as? NSNumber)?.intValue == 1 else { throw DecodingError(description: "review.json version \(root["version"] ?? "?") is not 1") }
        var book = ReviewBook(), dropped: [String] = []
        for o in root["items"] as? [[String: Any]] ?? [] {
            guard let index = (o["index"] as? NSNumber)?.intValue, let uri = o["uri"] as? String, let review = ItemReview.decode(o["review"]) else {
                dropped.append("an entry without index, uri or review")
                continue
            }
            guard uris.indices.contains(index), Redactor.redactURL(uris[index]) == uri else {
                dropped.append("item \(index) (\(uri)): not the list's item \(index) any more")
                continue
            }
            book.entries[index] = Entry(index: index, uri: uri, title: o["title"] as? String ?? "", review: review)
        }
        return (book, dropped)
    }

    /// A mark's frame as report.json may name it: `marks/<file>.png`, nothing that leaves the
    /// directory (a merged folder comes from another machine).
    public static func safeFramePath(_ path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "marks", !parts[1].isEmpty, !parts[1].hasPrefix("."), parts[1].hasSuffix(".png"),
              !parts[1].contains("\\") else { return nil }
        return path
    }

    // MARK: Two reviewers

    /// Two reviews of the same item in one: the same verdict (or only one given) joins their
    /// notes, reviewers and marks; different verdicts are a conflict, never settled by picking one.
    public enum Merged: Sendable, Equatable {
        case review(ItemReview)
        case conflict(ItemReview)  // no verdict; the marks of both
    }

    public static func merge(_ a: ItemReview, _ b: ItemReview) -> Merged {
        var out = ItemReview()
        var marks = a.marks
        for m in b.marks where !marks.contains(m) { marks.append(m) }
        out.marks = marks.sorted { $0.time < $1.time }
        switch (a.verdict, b.verdict) {
        case (nil, _):
            out.verdict = b.verdict; out.note = b.note; out.reviewer = b.reviewer; out.at = b.at
        case (_, nil):
            out.verdict = a.verdict; out.note = a.note; out.reviewer = a.reviewer; out.at = a.at
        case let (x?, y?) where x == y:
            out.verdict = x
            out.note = joined(a.note, b.note, separator: " / ")
            out.reviewer = joined(a.reviewer, b.reviewer, separator: ", ")
            out.at = [a.at, b.at].compactMap { $0 }.max()
        default:
            return .conflict(out)
        }
        return .review(out)
    }

    private static func joined(_ a: String?, _ b: String?, separator: String) -> String? {
        switch (a, b) {
        case (nil, nil): nil
        case (let x?, nil), (nil, let x?): x
        case let (x?, y?): x == y ? x : x + separator + y
        }
    }
}

/// Two reviewers gave one item different verdicts (`reel check merge`): both are kept, and the
/// item counts as not judged until it is reviewed again.
public struct ReviewConflict: Sendable, Equatable {
    public var index: Int
    public var uri: String
    public var reviews: [ItemReview]

    public init(index: Int, uri: String, reviews: [ItemReview]) {
        self.index = index; self.uri = uri; self.reviews = reviews
    }

    public var json: JSONValue {
        .object([("index", .int(index)), ("uri", .string(Redactor.redactURL(uri))), ("reviews", .array(reviews.map(\.json)))])
    }

    public var summary: String {
        "item \(index): " + reviews.map { "\($0.reviewer ?? "someone") said \($0.verdict?.rawValue ?? "nothing")\($0.note.map { " (“\($0)”)" } ?? "")" }.joined(separator: ", ")
    }
}
