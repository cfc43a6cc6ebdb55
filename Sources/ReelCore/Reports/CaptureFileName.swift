import Foundation

/// File names for frame captures, from a template. Documented in docs/QA.md (`--frame-name`).
///
/// Tokens (anything else between braces is an error):
/// - `{index}` — the item's queue index, 0-based as in the event stream; `{index:03}` pads to 3 digits.
/// - `{title}` — the item's title, sanitised for file systems (see `sanitise`).
/// - `{position}` — the frame's position as `TimeFormat.fileStamp` (`00h01m02s500`).
/// - `{ms}` — the frame's position in whole milliseconds.
///
/// The default, `{index:03}-{title}-{position}.png`, gives `004-Big_Buck_Bunny-00h01m02s500.png`.
/// A template never names a sub-directory: `/` is refused.
public enum CaptureFileName {
    /// Whether `path` (a frame's file in a report.json from a shard) is `frames/<name>`: one plain
    /// file name under frames/, no other directory, no "..", no hidden name, no control characters.
    public static func isShardFramePath(_ path: String, folder: String = "frames") -> Bool {
        guard path.hasPrefix(folder + "/") else { return false }
        let name = path.dropFirst(folder.count + 1)
        return !name.isEmpty && name.count <= 255 && !name.hasPrefix(".") && !name.contains("/") && !name.contains("\\")
            && !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    /// `reel review`'s automated findings: `checks/<index>/frames/<name>`.
    public static func isReviewCheckFramePath(_ path: String) -> Bool {
        let parts = path.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "checks", !parts[1].isEmpty, parts[1].allSatisfy(\.isASCII), parts[1].allSatisfy(\.isNumber) else { return false }
        return isShardFramePath(String(parts[2]))
    }

    public static let defaultTemplate = "{index:03}-{title}-{position}.png"

    public struct TemplateError: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Checks a template once, before any capture is taken.
    public static func validate(_ template: String) throws {
        _ = try render(template, index: 0, title: "x", position: 0)
    }

    /// The file name for a capture of the whole window: the template's name with `-window`
    /// before the extension (`004-Big_Buck_Bunny-00h01m02s500-window.png`), so a frame and a
    /// window captured at the same moment never overwrite each other.
    public static func renderWindow(_ template: String, index: Int?, title: String?, position: Double) throws -> String {
        let name = try render(template, index: index, title: title, position: position)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name + "-window" }
        return name[..<dot] + "-window" + name[dot...]
    }

    /// The file name for a frame of item `index` (nil: no queue, rendered as 0) at `position` seconds.
    public static func render(_ template: String, index: Int?, title: String?, position: Double) throws -> String {
        guard !template.isEmpty else { throw TemplateError(message: "The capture file name template is empty.") }
        guard !template.contains("/") else { throw TemplateError(message: "The capture file name template “\(template)” contains “/”; give the directory separately.") }
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw TemplateError(message: "Unclosed “{” in the capture file name template “\(template)”.")
            }
            let token = rest[rest.index(after: open)..<close]
            out += try expand(token, index: index ?? 0, title: title, position: position, template: template)
            rest = rest[rest.index(after: close)...]
        }
        out += rest
        if out.hasPrefix(".") { out = "_" + out.dropFirst() }
        return out
    }

    private static func expand(_ token: Substring, index: Int, title: String?, position: Double, template: String) throws -> String {
        let parts = token.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let name = parts[0]
        let format = parts.count > 1 ? String(parts[1]) : nil
        switch name {
        case "index":
            guard let format else { return String(index) }
            guard format.count >= 2, format.hasPrefix("0"), let width = Int(format.dropFirst()), (1...9).contains(width) else {
                throw TemplateError(message: "“{index:\(format)}”: the width must look like 03.")
            }
            let digits = String(index)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        case "title" where format == nil:
            return sanitise(title)
        case "position" where format == nil:
            return TimeFormat.fileStamp(position)
        case "ms" where format == nil:
            return String(BoundedNumber.milliseconds(position))
        default:
            throw TemplateError(message: "Unknown token “{\(token)}” in the capture file name template “\(template)” (known: {index}, {index:03}, {title}, {position}, {ms}).")
        }
    }

    /// A title made safe for any file system: ASCII letters, digits, `-`, `_` and `.` are kept,
    /// runs of anything else become one `_`, leading/trailing `_` and `.` are dropped, at most 60
    /// characters are kept, and an empty result is `item`.
    public static func sanitise(_ title: String?) -> String {
        var out = ""
        var lastWasUnderscore = false
        for u in (title ?? "").unicodeScalars {
            let keep = (u.value < 128) && (CharacterSet.alphanumerics.contains(u) || u == "-" || u == "_" || u == ".")
            if keep && u != "_" {
                out.unicodeScalars.append(u)
                lastWasUnderscore = false
            } else if !lastWasUnderscore {
                out += "_"
                lastWasUnderscore = true
            }
        }
        out = String(out.prefix(60))
        while let f = out.first, f == "_" || f == "." { out.removeFirst() }
        while let l = out.last, l == "_" || l == "." { out.removeLast() }
        return out.isEmpty ? "item" : out
    }

    /// A title for an item: its tag title, or its display name without the extension.
    public static func title(for uri: String, tagTitle: String? = nil) -> String {
        if let tagTitle, !tagTitle.isEmpty { return tagTitle }
        let name = MediaLocator.displayName(of: uri)
        let stem = (name as NSString).deletingPathExtension
        return stem.isEmpty ? name : stem
    }
}
