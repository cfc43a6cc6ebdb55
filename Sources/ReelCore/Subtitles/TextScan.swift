/// What the subtitle parsers need to stay linear in their input (issue 28, item 8: a 20 KB
/// file of blank lines froze Reel 57 s, 20,000 `<` in one cue 8 s): searches forward that
/// remember what they found, and trimming without Foundation's bridging.
struct ForwardFinder {
    private let chars: [Character]
    private let target: Character
    private var found: Int?
    private var exhausted = false

    init(_ chars: [Character], _ target: Character) {
        self.chars = chars
        self.target = target
    }

    /// The first index ≥ `from` holding the target. Calls must not go backwards: each character
    /// is then looked at once over all calls (the previous answer stands until passed, and "none"
    /// stands for good).
    mutating func next(from: Int) -> Int? {
        if exhausted { return nil }
        if let f = found, f >= from { return f }
        var j = from
        while j < chars.count {
            if chars[j] == target {
                found = j
                return j
            }
            j += 1
        }
        exhausted = true
        return nil
    }
}

extension Character {
    /// A space or tab, or another horizontal Unicode space (what `.whitespaces` trims).
    var isHorizontalSpace: Bool { isWhitespace && !isNewline }
}

extension StringProtocol {
    /// Without leading and trailing horizontal spaces (`.whitespaces`), without Foundation.
    var trimmingSpaces: SubSequence {
        guard let first = firstIndex(where: { !$0.isHorizontalSpace }) else { return self[endIndex...] }
        let last = lastIndex(where: { !$0.isHorizontalSpace })!
        return self[first...last]
    }

    /// Only horizontal spaces, or nothing.
    var isBlankLine: Bool { allSatisfy(\.isHorizontalSpace) }
}
