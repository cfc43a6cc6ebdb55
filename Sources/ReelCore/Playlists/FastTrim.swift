import Foundation

// `trimmingCharacters(in: .whitespaces)`, without Foundation's bridging for the common line that
// has nothing to trim (its first and last characters are printable ASCII): a playlist of 100,000
// entries spent a third of its parsing there (issue 51). Exactly the same result.
extension String {
    func trimmingPlaylistSpaces() -> String {
        if let first = utf8.first, let last = utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) { return self }
        return isEmpty ? "" : trimmingCharacters(in: .whitespaces)
    }
}

extension Substring {
    func trimmingPlaylistSpaces() -> String {
        if let first = utf8.first, let last = utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) { return String(self) }
        return isEmpty ? "" : trimmingCharacters(in: .whitespaces)
    }
}
