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

    /// The options a config file's text gives, each checked as the command line would take it.
    static func options(in text: String, name: String) -> Reading {
        var reading = Reading()
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = raw.trimmingCharacters(in: .whitespaces)
            if let hash = line.firstIndex(of: "#"), !line[..<hash].contains("\"") { line = String(line[..<hash]).trimmingCharacters(in: .whitespaces) }
            guard !line.isEmpty else { continue }
            let where_ = "\(name):\(number + 1)"
            if line.hasPrefix("[") {
                reading.problems.append(String(format: tr("%@: profiles ([…]) are not supported; the line is left out"), "\(where_)"))
                continue
            }
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            var key = parts[0]
            if key.hasPrefix("--") { key = String(key.dropFirst(2)) }
            let value = parts.count > 1 ? unquoted(parts[1]) : nil
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }),
                  !["config", "no-config", "help", "version"].contains(key) else {
                reading.problems.append(String(format: tr("%@: “%@” is not an option name"), "\(where_)", "\(key.prefix(40))"))
                continue
            }
            var candidates: [[String]] = []
            if let value {
                candidates.append(["--\(key)=\(value)"])
                if ["yes", "true"].contains(value.lowercased()) { candidates.append(["--\(key)"]) }
                if ["no", "false"].contains(value.lowercased()) { candidates.append([]) }  // a flag left off
            } else {
                candidates.append(["--\(key)"])
            }
            guard let accepted = candidates.first(where: { $0.isEmpty ? accepts(["--\(key)"]) : accepts($0) }) else {
                reading.problems.append(String(format: tr("%@: --%@%@ is not an option of reel or its value is not accepted (see reel --help); left out"), "\(where_)", "\(key)", "\(value == nil ? "" : "=…")"))
                continue
            }
            reading.arguments += accepted
        }
        return reading
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
