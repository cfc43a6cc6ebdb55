import Foundation

/// `reel check --known FILE`: the problems a catalogue accepts for now, as gst-validate's
/// `expected-issues` does. A line per problem:
///
///     # items       code                   [max=BOUND] [sometimes] [link]
///     *ad-break*    segment-not-keyframe   https://tracker.example/QA-12
///     clip2s.mp4    dropped-frames  max=40 sometimes https://tracker.example/QA-30
///
/// An item whose input (or its file name) matches and that has the problem (an error among its
/// problems, or its error, by code; with `max=`, only while the figure is at most the bound)
/// reports it as known: it fails nothing. A known problem that did not happen is reported as
/// fixed (unless `sometimes`). Anything else fails as before.
public struct KnownProblems: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var line: Int
        public var pattern: String
        public var code: String
        public var max: Double?
        public var sometimes: Bool
        public var link: String?
    }

    /// What a known problem came to on one item.
    public struct Outcome: Sendable, Equatable {
        public enum State: String, Sendable { case known, fixed }
        public var code: String
        public var state: State
        public var link: String?
        public var sometimes: Bool
        /// The figure measured this run (a bounded problem).
        public var figure: Double?

        public init(code: String, state: State, link: String?, sometimes: Bool, figure: Double? = nil) {
            self.code = code; self.state = state; self.link = link; self.sometimes = sometimes; self.figure = figure
        }

        var json: JSONValue {
            .object([("code", .string(code)), ("state", .string(state.rawValue)), ("link", .optional(link.map(Redactor.redactURL))),
                     ("sometimes", .bool(sometimes)), ("figure", .optional(figure.flatMap { $0.isFinite ? ($0 * 1000).rounded() / 1000 : nil }))])
        }

        init?(reportJSON value: Any?) {
            guard let o = value as? [String: Any], let code = o["code"] as? String, let state = State(rawValue: o["state"] as? String ?? "") else { return nil }
            self.init(code: code, state: state, link: o["link"] as? String, sometimes: o["sometimes"] as? Bool ?? false,
                      figure: (o["figure"] as? NSNumber)?.doubleValue)
        }
    }

    public var entries: [Entry]

    public static let maximumEntries = 100_000

    public static func parse(_ text: String) throws -> KnownProblems {
        var entries: [Entry] = []
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = offset + 1
            var content = String(raw)
            // A comment starts a line or follows a space (a link's #fragment stays).
            if content.trimmingCharacters(in: .whitespaces).hasPrefix("#") { continue }
            if let r = content.range(of: " #") { content = String(content[..<r.lowerBound]) }
            let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard !words.isEmpty else { continue }
            guard entries.count < maximumEntries else { throw CheckScenario.ParseError(line: line, message: "more than \(maximumEntries) known problems") }
            guard words.count >= 2 else { throw CheckScenario.ParseError(line: line, message: "a known problem is ITEMS CODE [max=BOUND] [sometimes] [LINK]") }
            var entry = Entry(line: line, pattern: words[0], code: words[1], max: nil, sometimes: false, link: nil)
            for word in words.dropFirst(2) {
                if word.hasPrefix("max=") {
                    guard let v = Double(word.dropFirst(4).trimmingCharacters(in: CharacterSet(charactersIn: "%s"))), v.isFinite else {
                        throw CheckScenario.ParseError(line: line, message: "“\(word.prefix(40))”: max= takes a number")
                    }
                    entry.max = v
                } else if word == "sometimes" {
                    entry.sometimes = true
                } else if entry.link == nil, word.contains(":") || word.contains("/") {
                    entry.link = word
                } else {
                    throw CheckScenario.ParseError(line: line, message: "“\(word.prefix(40))” is not max=BOUND, sometimes or a link")
                }
            }
            entries.append(entry)
        }
        return KnownProblems(entries: entries)
    }

    /// The entries for an item (by its input, or the input's last part).
    func entries(for input: String) -> [Entry] {
        let name = (URL(string: input)?.lastPathComponent).flatMap { $0.isEmpty ? nil : $0 } ?? (input as NSString).lastPathComponent
        return entries.filter { GlobPattern.matches($0.pattern, input) || GlobPattern.matches($0.pattern, name) }
    }

    /// The item with its known problems marked known, and the outcome of every entry for it.
    public func apply(to item: CheckReport.Item) -> CheckReport.Item {
        var item = item
        for entry in entries(for: item.input) {
            var seen = false
            var figure: Double?
            for i in item.problems.indices where item.problems[i].code == entry.code && item.problems[i].severity == .error {
                seen = true
                let f = item.problems[i].figure
                if let max = entry.max, let f, !(f <= max) {
                    item.problems[i].message += String(format: " — known only up to %g", max)
                    continue
                }
                figure = f ?? figure
                item.problems[i].severity = .known
                item.problems[i].link = entry.link
            }
            if let error = item.error, error.code == entry.code, !item.knownProblems.contains(where: { $0.code == entry.code && $0.state == .known }) {
                seen = true
                item.knownProblems.append(Outcome(code: entry.code, state: .known, link: entry.link, sometimes: entry.sometimes))
                continue
            }
            if seen {
                if item.problems.contains(where: { $0.code == entry.code && $0.severity == .known }) {
                    item.knownProblems.append(Outcome(code: entry.code, state: .known, link: entry.link, sometimes: entry.sometimes, figure: figure))
                }
            } else if !entry.sometimes {
                item.knownProblems.append(Outcome(code: entry.code, state: .fixed, link: entry.link, sometimes: false))
            }
        }
        return item
    }
}

extension CheckReport.Item {
    /// The item's error is one the catalogue knows (`--known`): it does not fail the item.
    public var errorIsKnown: Bool {
        guard let error else { return false }
        return knownProblems.contains { $0.code == error.code && $0.state == .known }
    }
}
