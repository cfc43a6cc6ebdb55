import ReelCore

/// The window's default keys, as a built-in input.conf (mpv's `etc/input.conf`): each a command
/// the socket takes too, read by the binding parser (`InputBindings`) with the user's file over
/// it. What is neither a property nor a command (dialogs, the panel, the stats overlay, a key
/// whose meaning depends on the view: Esc, End, `[`, `]`) stays in `KeyMap`. The `?` window and
/// the README's key table are made from this list (`KeyMap.help`, `reel docs keys`).
public enum DefaultKeys {
    public struct Group: Sendable {
        /// Keys and their commands (several keys may share one).
        public var bindings: [(key: String, command: String)]
        public var meaning: String
    }

    public static let groups: [Group] = [
        Group(bindings: [("SPACE", "cycle pause"), ("p", "cycle pause"), ("P", "cycle pause"), ("PLAYPAUSE", "cycle pause")], meaning: tr("Play or pause")),
        Group(bindings: [("LEFT", "seek -5"), ("KP_LEFT", "seek -5"), ("RIGHT", "seek 5"), ("KP_RIGHT", "seek 5")], meaning: tr("Back or forward 5 seconds")),
        Group(bindings: [("Shift+LEFT", "seek -1"), ("Shift+RIGHT", "seek 1")], meaning: tr("Back or forward 1 second")),
        Group(bindings: [("DOWN", "seek -60"), ("KP_DOWN", "seek -60"), ("UP", "seek 60"), ("KP_UP", "seek 60")], meaning: tr("Back or forward 1 minute")),
        Group(bindings: [(",", "frame-back-step"), (".", "frame-step")], meaning: tr("One frame back or forward")),
        Group(bindings: [("BS", "set speed 1")], meaning: tr("Normal speed")),
        Group(bindings: [("9", "add volume -5"), ("0", "add volume 5")], meaning: tr("Volume down or up")),
        Group(bindings: [("m", "cycle mute"), ("M", "cycle mute"), ("MUTE", "cycle mute")], meaning: tr("Mute")),
        Group(bindings: [("<", "playlist-prev"), ("PREV", "playlist-prev"), (">", "playlist-next"), ("NEXT", "playlist-next")], meaning: tr("Previous or next item")),
        Group(bindings: [("PGUP", "add chapter 1"), ("PGDWN", "add chapter -1")], meaning: tr("Next or previous chapter")),
        Group(bindings: [("l", "ab-loop")], meaning: tr("A-B loop: set A, set B, clear")),
        Group(bindings: [("Alt+LEFT", "add video-pan-x 0.1"), ("Alt+RIGHT", "add video-pan-x -0.1"), ("Alt+UP", "add video-pan-y 0.1"),
                         ("Alt+DOWN", "add video-pan-y -0.1"), ("Alt++", "add video-zoom 0.1"), ("Alt+=", "add video-zoom 0.1"),
                         ("Alt+KP_ADD", "add video-zoom 0.1"), ("Alt+-", "add video-zoom -0.1"), ("Alt+KP_SUBTRACT", "add video-zoom -0.1"),
                         ("Alt+BS", "set video-zoom 0; set video-pan-x 0; set video-pan-y 0")],
              meaning: tr("Pan, zoom the picture (Alt+Backspace: back)")),
        Group(bindings: [("L", "cycle-values loop-file inf no")], meaning: tr("Loop this item or not")),
        Group(bindings: [("1", "add contrast -1"), ("2", "add contrast 1"), ("3", "add brightness -1"), ("4", "add brightness 1")],
              meaning: tr("Contrast, brightness down or up")),
        Group(bindings: [("5", "add gamma -1"), ("6", "add gamma 1"), ("7", "add saturation -1"), ("8", "add saturation 1")],
              meaning: tr("Gamma, saturation down or up")),
        Group(bindings: [("Ctrl+-", "add audio-delay -0.1"), ("Ctrl+KP_SUBTRACT", "add audio-delay -0.1"), ("Ctrl++", "add audio-delay 0.1"),
                         ("Ctrl+=", "add audio-delay 0.1"), ("Ctrl+KP_ADD", "add audio-delay 0.1")], meaning: tr("Audio 0.1 s earlier or later")),
        Group(bindings: [("f", "cycle fullscreen"), ("F11", "cycle fullscreen")], meaning: tr("Fullscreen")),
        Group(bindings: [("a", "cycle aspect"), ("A", "cycle aspect")], meaning: tr("Aspect: fit, fill (crop), stretch")),
        Group(bindings: [("SHARP", "cycle audio-track")], meaning: tr("Next audio track")),
        Group(bindings: [("j", "cycle subtitle-track"), ("J", "cycle subtitle-track")], meaning: tr("Next subtitle track (then none)")),
        Group(bindings: [("v", "cycle sub-visibility"), ("V", "cycle sub-visibility")], meaning: tr("Show or hide subtitles")),
        Group(bindings: [("F", "add sub-scale -0.1"), ("G", "add sub-scale 0.1")], meaning: tr("Smaller or larger subtitles")),
        Group(bindings: [("z", "add sub-delay -0.1"), ("Z", "add sub-delay 0.1")], meaning: tr("Subtitles 0.1 s earlier or later")),
        Group(bindings: [("r", "add sub-pos -1"), ("R", "add sub-pos 1")], meaning: tr("Subtitles up or down")),
    ]

    /// The built-in input.conf, one binding a line.
    public static var inputConf: String {
        groups.flatMap { g in g.bindings.map { "\($0.key) \($0.command)" } }.joined(separator: "\n") + "\n"
    }

    /// The bindings as the parser reads them (every line must be one it takes: `DefaultKeysTests`).
    public static let bindings = InputBindings(text: inputConf, name: "built-in input.conf",
                                               registered: ["frame-step", "frame-back-step", "ab-loop"])

    /// A group's keys as people read them: keys with one command joined by “, ”, the commands
    /// apart by “ / ” (`← / →`); the media keys and the keypad's are left out.
    static func shownKeys(_ g: Group) -> String {
        var order: [String] = []
        var keys: [String: [String]] = [:]
        for (key, command) in g.bindings where !hidden(key) {
            if keys[command] == nil { order.append(command) }
            keys[command, default: []].append(shown(key))
        }
        return order.map { keys[$0]!.joined(separator: ", ") }.joined(separator: " / ")
    }

    /// The same keys for the README (escaped for a Markdown table).
    public static func shownKeysForDocs(_ g: Group) -> String {
        shownKeys(g).replacingOccurrences(of: "|", with: "\\|")
    }

    private static func hidden(_ key: String) -> Bool {
        key.contains("KP_") || ["PLAYPAUSE", "MUTE", "PREV", "NEXT", "Alt+=", "Ctrl+=", "M", "P", "A", "J", "V"].contains(key)
    }

    private static func shown(_ key: String) -> String {
        let names = ["SPACE": "Space", "LEFT": "←", "RIGHT": "→", "UP": "↑", "DOWN": "↓", "BS": "Backspace", "PGUP": "PgUp", "PGDWN": "PgDn", "SHARP": "#"]
        var parts: [String] = []
        var rest = Substring(key)
        while let plus = rest.dropFirst().firstIndex(of: "+") {
            parts.append(String(rest[rest.startIndex..<plus]))
            rest = rest[rest.index(after: plus)...]
        }
        return (parts + [names[String(rest)] ?? String(rest)]).joined(separator: "+")
    }
}
