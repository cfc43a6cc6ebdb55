import Foundation

/// A key as mpv's input.conf names it: modifiers and a key name (`Ctrl+s`, `SPACE`, `PGUP`,
/// `A` for Shift+a, `KP_ADD`). Single characters are compared as they are (case matters, as in
/// mpv); special names and modifiers in any case.
public struct KeyChord: Hashable, Sendable, CustomStringConvertible {
    public struct Modifiers: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let shift = Modifiers(rawValue: 1), ctrl = Modifiers(rawValue: 2), alt = Modifiers(rawValue: 4), meta = Modifiers(rawValue: 8)
    }

    public var modifiers: Modifiers
    /// One character (`a`, `A`, `+`), or a special key's name in capitals (`SPACE`, `F5`).
    public var key: String

    public init(modifiers: Modifiers = [], key: String) {
        self.modifiers = modifiers
        self.key = key.count == 1 ? key : key.uppercased()
    }

    /// The special keys' names (mpv's `--input-keylist`, those a desktop keyboard has).
    public static let specialNames: Set<String> = Set(["SPACE", "ENTER", "ESC", "BS", "DEL", "TAB", "INS", "HOME", "END", "PGUP", "PGDWN",
                                                        "LEFT", "RIGHT", "UP", "DOWN", "SHARP", "KP_ADD", "KP_SUBTRACT", "KP_ENTER",
                                                        "KP_LEFT", "KP_RIGHT", "KP_UP", "KP_DOWN",
                                                        "PLAY", "PAUSE", "PLAYPAUSE", "STOP", "NEXT", "PREV", "MUTE", "VOLUME_UP", "VOLUME_DOWN"]
                                                       + (1...12).map { "F\($0)" } + (0...9).map { "KP\($0)" } + mouseNames)

    /// The mouse, as mpv names its buttons and wheel (over the video).
    public static let mouseNames = ["MBTN_LEFT", "MBTN_LEFT_DBL", "MBTN_MID", "MBTN_RIGHT", "MBTN_BACK", "MBTN_FORWARD",
                                    "WHEEL_UP", "WHEEL_DOWN", "WHEEL_LEFT", "WHEEL_RIGHT"]

    /// Reads `Ctrl+Shift+PGUP`, `ctrl++`, `a`; nil for an unknown key or modifier.
    public init?(parsing text: String) {
        var rest = Substring(text)
        var modifiers: Modifiers = []
        while let plus = rest.dropFirst().firstIndex(of: "+") {
            let name = rest[rest.startIndex..<plus].lowercased()
            switch name {
            case "shift": modifiers.insert(.shift)
            case "ctrl", "control": modifiers.insert(.ctrl)
            case "alt": modifiers.insert(.alt)
            case "meta": modifiers.insert(.meta)
            default: return nil
            }
            rest = rest[rest.index(after: plus)...]
        }
        guard !rest.isEmpty else { return nil }
        let key = String(rest)
        guard key.count == 1 || Self.specialNames.contains(key.uppercased()) else { return nil }
        if key == "#" { self.init(modifiers: modifiers, key: "SHARP"); return }
        if key == " " { self.init(modifiers: modifiers, key: "SPACE"); return }
        self.init(modifiers: modifiers, key: key)
    }

    public var description: String {
        var parts: [String] = []
        if modifiers.contains(.shift) { parts.append("Shift") }
        if modifiers.contains(.ctrl) { parts.append("Ctrl") }
        if modifiers.contains(.alt) { parts.append("Alt") }
        if modifiers.contains(.meta) { parts.append("Meta") }
        return (parts + [key]).joined(separator: "+")
    }
}

/// The user's key bindings, mpv's input.conf: `KEY command …` a line, `#` comments, `KEY ignore`
/// to unbind a key. Each command is checked as the socket would parse it; a line that cannot be
/// used is a problem with its line number (and left out), never a failure of the whole file.
public struct InputBindings: Sendable {
    public private(set) var commands: [KeyChord: String] = [:]
    public private(set) var problems: [String] = []

    public init() {}

    public init(text: String, name: String = "input.conf", registered: Set<String> = []) {
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let parts = line.split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "\t" })
            let where_ = "\(name):\(number + 1)"
            guard let keyText = parts.first, let chord = KeyChord(parsing: String(keyText)) else {
                problems.append(String(format: tr("%@: unknown key “%@”"), "\(where_)", "\(parts.first.map(String.init)?.prefix(40) ?? "")"))
                continue
            }
            let command = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
            if command == "ignore" { commands[chord] = "ignore"; continue }
            let failure = Self.parts(of: command).lazy.compactMap { part -> IPCRequest.Failure? in
                if case .failure(let f) = IPCRequest.parseText(part, registered: registered) { return f }
                return nil
            }.first
            if let failure {
                problems.append("\(where_): \(chord): \(failure.error.message)")
                continue
            }
            commands[chord] = command
        }
    }

    /// A binding's commands: mpv's `;` between them (outside quotes), in order.
    public static func parts(of command: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var quote: Character?
        for c in command {
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == ";" {
                parts.append(current)
                current = ""
                continue
            }
            current.append(c)
        }
        parts.append(current)
        return parts.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Binds a key at run time (mpv's `keybind KEY CMD`); `ignore` unbinds it.
    public mutating func bind(_ chord: KeyChord, to command: String) { commands[chord] = command }

    /// The command bound to `chord` (`ignore`: the key does nothing), nil when the user bound none.
    public func command(for chord: KeyChord) -> String? { commands[chord] }
}
