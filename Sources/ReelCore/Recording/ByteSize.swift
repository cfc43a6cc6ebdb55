import Foundation

/// "500k", "64M", "2G", "1048576": bytes.
public enum ByteSize {
    public static func parse(_ text: String) -> Int? {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard let last = t.last else { return nil }
        let scale: Int
        switch last.lowercased() {
        case "k": scale = 1 << 10
        case "m": scale = 1 << 20
        case "g": scale = 1 << 30
        default: return Int(t).flatMap { $0 >= 0 ? $0 : nil }
        }
        guard let n = Double(t.dropLast()), n >= 0, n * Double(scale) < Double(Int.max / 2) else { return nil }
        return Int(n * Double(scale))
    }
}
