import Foundation

/// reel.conf edited as a person would (the preferences window's writes): the option's last line
/// (`name=value`, `--name=value`, a bare flag `name`, or `no-name`) gets the new value, its
/// trailing comment kept; without one, a line is added at the end. Every other line — comments,
/// blank lines, other options, what Reel does not read — stays as it was, byte for byte.
public enum ConfigText {
    public static func setting(_ key: String, to value: String, in text: String) -> String {
        let line = "\(key)=\(value)"
        var lines = text.components(separatedBy: "\n")
        if let i = lines.lastIndex(where: { option(of: $0) == key }) {
            lines[i] = line + (comment(of: lines[i]).map { " " + $0 } ?? "")
            return lines.joined(separator: "\n")
        }
        return text + (text.isEmpty || text.hasSuffix("\n") ? "" : "\n") + line + "\n"
    }

    /// The value the file's last line for `key` gives (a bare flag: "yes", `no-key`: "no"), nil
    /// without one.
    public static func value(of key: String, in text: String) -> String? {
        guard let raw = text.components(separatedBy: "\n").last(where: { option(of: $0) == key }) else { return nil }
        let body = withoutComment(raw)
        let parts = body.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        let name = parts[0].hasPrefix("--") ? String(parts[0].dropFirst(2)) : parts[0]
        if parts.count == 1 { return name.hasPrefix("no-") && name != key ? "no" : "yes" }
        var v = parts[1]
        if v.count >= 2, v.hasPrefix("\""), v.hasSuffix("\"") { v = String(v.dropFirst().dropLast()) }
        return v
    }

    /// The option a line sets (nil: a comment, a blank line, a profile).
    static func option(of line: String) -> String? {
        let body = withoutComment(line)
        guard !body.isEmpty, !body.hasPrefix("[") else { return nil }
        var key = body.split(separator: "=", maxSplits: 1)[0].trimmingCharacters(in: .whitespaces)
        if key.hasPrefix("--") { key = String(key.dropFirst(2)) }
        if key.hasPrefix("no-"), !body.contains("=") { key = String(key.dropFirst(3)) }  // a flag turned off
        return key
    }

    private static func commentStart(_ line: String) -> String.Index? {
        guard let hash = line.firstIndex(of: "#"), !line[..<hash].contains("\"") else { return nil }
        return hash
    }

    private static func withoutComment(_ line: String) -> String {
        let cut = commentStart(line).map { String(line[..<$0]) } ?? line
        return cut.trimmingCharacters(in: .whitespaces)
    }

    private static func comment(of line: String) -> String? {
        guard let hash = commentStart(line), !line[..<hash].trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return String(line[hash...])
    }
}
