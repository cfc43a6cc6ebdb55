import Foundation

// report.json read back (`reel check merge` joins shards' reports).
extension CheckReport {
    public struct DecodingError: LocalizedError, CustomStringConvertible {
        public var description: String
        public var errorDescription: String? { description }
        public init(description: String) { self.description = description }
    }

    /// A report as `jsonText` wrote it (version 1).
    public static func decode(_ data: Data) throws -> CheckReport {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any], root["reel"] as? String == "check" else {
            throw DecodingError(description: "not a reel check report.json")
        }
        guard root["version"] as? Int == 1 else { throw DecodingError(description: "report.json version \(root["version"] ?? "?") is not 1") }
        let iso = ISO8601DateFormatter()
        let summary = root["summary"] as? [String: Any] ?? [:]
        let items = try (root["items"] as? [[String: Any]] ?? []).map(item)
        var report = CheckReport(items: items, positions: root["positions"] as? [String] ?? [],
                                 generated: (root["generated"] as? String).flatMap(iso.date(from:)) ?? Date(timeIntervalSince1970: 0),
                                 wallSeconds: number(summary["wallSeconds"]) ?? 0, contactSheet: root["contactSheet"] as? String)
        report.reviewConflicts = ((root["review"] as? [String: Any])?["conflicts"] as? [[String: Any]] ?? []).compactMap { c in
            guard let index = int(c["index"]), let uri = c["uri"] as? String else { return nil }
            return ReviewConflict(index: index, uri: uri, reviews: (c["reviews"] as? [Any] ?? []).compactMap(ItemReview.decode))
        }
        report.retried = (root["retried"] as? [[String: Any]] ?? []).compactMap(Retried.init(reportJSON:))
        return report
    }

    private static func number(_ v: Any?) -> Double? { (v as? NSNumber)?.doubleValue }
    private static func int(_ v: Any?) -> Int? { (v as? NSNumber)?.intValue }

    private static func item(_ o: [String: Any]) throws -> Item {
        guard let index = int(o["index"]), let input = o["input"] as? String, let uri = o["uri"] as? String, let title = o["title"] as? String else {
            throw DecodingError(description: "an item without index, input, uri or title")
        }
        var item = Item(index: index, input: input, uri: uri, title: title)
        for field in Item.fields { field.read(o[field.key], &item) }
        item.review = ItemReview.decode(o["review"])
        return item
    }

    /// Shards' reports joined into the report one run would have written: items in their
    /// original order, the earliest start, the longest wall time (the shards ran side by side).
    /// An item two reports checked (a retried shard: Kubernetes, Argo and CI matrices retry a
    /// failed pod) is taken from the later report, and listed in `retried`. Throws when the two
    /// are different inputs at the same index (shards of different lists). Reviews (`reel review`)
    /// of the same list join instead: an item in two reports takes the automated findings of the
    /// first and the two reviews merged (`ReviewBook.merge`); different verdicts become a listed conflict.
    public static func merged(_ reports: [CheckReport]) throws -> CheckReport {
        var byIndex: [Int: Item] = [:]
        var taken: [Int: Date] = [:]
        var retried: [Retried] = []
        var conflicts: [Int: ReviewConflict] = [:]
        for c in reports.flatMap(\.reviewConflicts) { conflicts[c.index] = c }
        for (item, generated) in reports.flatMap({ r in r.items.map { ($0, r.generated) } }) {
            guard var old = byIndex[item.index] else {
                byIndex[item.index] = item
                taken[item.index] = generated
                continue
            }
            guard old.uri == item.uri else {
                throw DecodingError(description: "item \(item.index) is \(Redactor.redactURL(old.uri)) in one report and \(Redactor.redactURL(item.uri)) in another (shards of different lists?)")
            }
            guard old.review != nil || item.review != nil else {
                // The same item checked twice: the later run's findings stand.
                let earlier = taken[item.index] ?? generated
                if generated >= earlier {
                    byIndex[item.index] = item
                    taken[item.index] = generated
                }
                retried.append(Retried(index: item.index, uri: item.uri, kept: max(generated, earlier), dropped: min(generated, earlier)))
                continue
            }
            if old.duration == nil && old.frames.isEmpty && old.error == nil { old = Item(taking: item, review: old.review) }
            switch (old.review, item.review) {
            case (nil, let r), (let r, nil):
                old.review = r
            case let (a?, b?):
                if let earlier = conflicts[item.index] {  // a third reviewer: one more side of the same conflict
                    conflicts[item.index]?.reviews.append(b)
                    old.review = ItemReview(marks: earlier.reviews.flatMap(\.marks) + b.marks)
                    break
                }
                switch ReviewBook.merge(a, b) {
                case .review(let r): old.review = r
                case .conflict(let r):
                    old.review = r
                    conflicts[item.index] = ReviewConflict(index: item.index, uri: item.uri, reviews: [a, b])
                }
            }
            byIndex[item.index] = old
        }
        var report = CheckReport(items: byIndex.keys.sorted().map { byIndex[$0]! }, positions: reports.first?.positions ?? [],
                                 generated: reports.map(\.generated).min() ?? Date(), wallSeconds: reports.map(\.wallSeconds).max() ?? 0)
        report.reviewConflicts = conflicts.keys.sorted().map { conflicts[$0]! }
        // A merge of merges keeps what the earlier merges found.
        report.retried = reports.flatMap(\.retried) + retried
        return report
    }

    /// An item two shards' reports held (`merged` kept the later).
    public struct Retried: Sendable, Equatable {
        public var index: Int
        public var uri: String
        public var kept: Date
        public var dropped: Date

        var json: JSONValue {
            let iso = ISO8601DateFormatter()
            return .object([("index", .int(index)), ("uri", .string(Redactor.redactURL(uri))),
                            ("kept", .string(iso.string(from: kept))), ("dropped", .string(iso.string(from: dropped)))])
        }

        init(index: Int, uri: String, kept: Date, dropped: Date) {
            self.index = index; self.uri = uri; self.kept = kept; self.dropped = dropped
        }

        init?(reportJSON o: [String: Any]) {
            let iso = ISO8601DateFormatter()
            guard let index = (o["index"] as? NSNumber)?.intValue, let uri = o["uri"] as? String,
                  let kept = (o["kept"] as? String).flatMap(iso.date(from:)), let dropped = (o["dropped"] as? String).flatMap(iso.date(from:)) else { return nil }
            self.init(index: index, uri: uri, kept: kept, dropped: dropped)
        }
    }
}

extension CheckReport.Item {
    /// `other`'s findings with `review` (an item one review reached only by name).
    init(taking other: CheckReport.Item, review: ItemReview?) {
        self = other
        self.review = review
    }
}
