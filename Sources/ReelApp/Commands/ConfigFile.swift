import ArgumentParser
import Foundation
import ReelCore

/// The user's defaults, mpv's mpv.conf: `$XDG_CONFIG_HOME/reel/reel.conf` (or `--config FILE`;
/// `--no-config` reads none). Every long option of `reel` (playing) as `name=value` or `name` (a
/// flag; `name=yes`/`name=no` too), `#` comments. Its options come before the command line's, so
/// the command line wins (a list, such as `sub-file`, gets both). A line that cannot be used is
/// said with its file and line number — never its value, which may be a credential — and left out.
enum ConfigFile {
    /// The largest file read.
    static let maxBytes = 1 << 20

    struct Reading: Equatable {
        var arguments: [String] = []
        var problems: [String] = []
    }

    /// The command line with the config file's options before it (and `--config`/`--no-config`
    /// taken out), and what could not be used. Subcommands (`check`, `inspect` …) read no config.
    static func apply(to arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) -> Reading {
        var rest = arguments
        if let first = rest.first, ReelCommand.configuration.subcommands.contains(where: { $0._commandName == first && $0 != PlayCommand.self }) {
            return Reading(arguments: arguments)
        }
        var path: String? = defaultPath(environment: environment)
        var explicit = false
        var i = 0
        while i < rest.count {
            let a = rest[i]
            if a == "--" { break }
            if a == "--no-config" { path = nil; rest.remove(at: i); continue }
            if a == "--config", i + 1 < rest.count { path = rest[i + 1]; explicit = true; rest.removeSubrange(i...(i + 1)); continue }
            if a.hasPrefix("--config=") { path = String(a.dropFirst("--config=".count)); explicit = true; rest.remove(at: i); continue }
            i += 1
        }
        guard let path else { return Reading(arguments: rest) }
        let name = explicit ? path : "reel.conf"
        let facts = LocalFileFacts(path: path)
        guard facts.kind == .regular, (facts.size ?? 0) <= Int64(maxBytes), let data = FileManager.default.contents(atPath: path) else {
            return Reading(arguments: rest, problems: explicit || facts.kind != nil ? [String(format: tr("%@: cannot be read as a config file (a regular file of at most 1 MiB); not used"), "\(name)")] : [])
        }
        let read = options(in: String(decoding: data, as: UTF8.self), name: name)
        return Reading(arguments: read.arguments + rest, problems: read.problems)
    }

    /// Option lines read at the most; the rest are said and left out.
    static let maxOptionLines = 1000

    /// One option line: what is checked (the command line's form), what it adds (nothing for
    /// `flag=no`), and the other forms to try when the first is refused.
    private struct Line {
        var number: Int
        var place: String
        var key: String
        var value: String?
        var forms: [(check: [String], adds: [String])]
    }

    /// The options a config file's text gives, each checked as the command line would take it.
    /// In one pass: the lines are checked together by one parse, and only a refused group is
    /// split to find the lines to leave out (each line alone cost a parse, ~22 ms: 5,000 lines
    /// held the start for 116 s).
    static func options(in text: String, name: String) -> Reading {
        var reading = Reading()
        var lines: [Line] = []
        var problems: [(line: Int, problem: String)] = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = raw.trimmingCharacters(in: .whitespaces)
            if let hash = line.firstIndex(of: "#"), !line[..<hash].contains("\"") { line = String(line[..<hash]).trimmingCharacters(in: .whitespaces) }
            guard !line.isEmpty else { continue }
            let where_ = "\(name):\(number + 1)"
            if line.hasPrefix("[") {
                problems.append((number + 1, String(format: tr("%@: profiles ([…]) are not supported; the line is left out"), "\(where_)")))
                continue
            }
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            var key = parts[0]
            if key.hasPrefix("--") { key = String(key.dropFirst(2)) }
            let value = parts.count > 1 ? unquoted(parts[1]) : nil
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }),
                  !["config", "no-config", "help", "version"].contains(key) else {
                problems.append((number + 1, String(format: tr("%@: “%@” is not an option name"), "\(where_)", "\(key.prefix(40))")))
                continue
            }
            guard lines.count < maxOptionLines else {
                problems.append((number + 1, String(format: tr("%@: more than %d options; the rest of the file is left out"), "\(where_)", maxOptionLines)))
                break
            }
            var forms: [(check: [String], adds: [String])] = []
            if let value {
                forms.append((["--\(key)=\(value)"], ["--\(key)=\(value)"]))
                if ["yes", "true"].contains(value.lowercased()) { forms.append((["--\(key)"], ["--\(key)"])) }
                if ["no", "false"].contains(value.lowercased()) { forms.append((["--\(key)"], [])) }  // a flag left off
            } else {
                forms.append((["--\(key)"], ["--\(key)"]))
            }
            lines.append(Line(number: number + 1, place: where_, key: key, value: value, forms: forms))
        }
        var chosen = [Int?](repeating: 0, count: lines.count)
        check(lines.indices, lines, &chosen)
        for (k, line) in lines.enumerated() {
            guard let form = chosen[k] else {
                problems.append((line.number, String(format: tr("%@: --%@%@ is not an option of reel or its value is not accepted (see reel --help); left out"),
                                                    "\(line.place)", "\(line.key)", "\(line.value == nil ? "" : "=…")")))
                continue
            }
            reading.arguments += line.forms[form].adds
        }
        // Said in the file's order.
        reading.problems = problems.sorted { $0.line < $1.line }.map(\.problem)
        return reading
    }

    /// Checks `range` of the lines with their first forms in one parse; a refused range is split
    /// in two, and a refused single line tries its other forms (`chosen`: nil when none is taken).
    private static func check(_ range: Range<Int>, _ lines: [Line], _ chosen: inout [Int?]) {
        guard !range.isEmpty else { return }
        if accepts(range.flatMap { lines[$0].forms[0].check }) { return }
        guard range.count > 1 else {
            let k = range.lowerBound
            chosen[k] = lines[k].forms.indices.dropFirst().first { accepts(lines[k].forms[$0].check) }
            return
        }
        let middle = range.lowerBound + range.count / 2
        check(range.lowerBound..<middle, lines, &chosen)
        check(middle..<range.upperBound, lines, &chosen)
    }

    /// Whether the play command takes these arguments (parsed alone; nothing runs).
    private static func accepts(_ arguments: [String]) -> Bool {
        (try? PlayCommand.parse(arguments)) != nil
    }

    private static func unquoted(_ s: String) -> String {
        s.count >= 2 && s.hasPrefix("\"") && s.hasSuffix("\"") ? String(s.dropFirst().dropLast()) : s
    }

    /// `$XDG_CONFIG_HOME/reel/reel.conf` (~/.config/reel/reel.conf), whether or not it exists.
    static func defaultPath(environment: [String: String]) -> String {
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (NSHomeDirectory() + "/.config")
        return config + "/reel/reel.conf"
    }
}
