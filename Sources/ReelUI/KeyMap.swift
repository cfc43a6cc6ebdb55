import ReelCore

/// The keyboard shortcuts, following mpv and Celluloid. Pure: a key (symbol + modifiers) and the
/// current view state in, a command out. The window feeds it every key press.
public enum KeyMap {
    /// Volume step for 9/0 and the wheel.
    public static let volumeStep = 0.05
    /// The speeds [ and ] step through.
    /// (Above 2× the player plays key frames only, as trick modes do; the socket goes to 64×.)
    public static let rates: [Double] = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4]

    /// The keys that are not a command of the built-in input.conf (`DefaultKeys`): dialogs, the
    /// panel, the stats, captures, quitting, and keys whose meaning depends on the view (Esc in
    /// fullscreen, End on a live item, `[` and `]` to the next speed of `rates`).
    public static func command(keyval: UInt32, modifiers: KeyModifiers, state: PlayerViewState) -> KeyCommand? {
        let shift = modifiers.contains(.shift)
        if modifiers.contains(.alt) { return nil }
        if modifiers.contains(.control) {
            switch keyval {
            case KeySym.char("o"), KeySym.char("O"): return shift ? .openFolderDialog : .openFilesDialog
            case KeySym.char("l"), KeySym.char("L"): return .openURLDialog
            case KeySym.char("s"), KeySym.char("S"): return .action(.captureWindow)
            case KeySym.comma: return .action(.openPreferences)
            default: return nil
            }
        }
        switch keyval {
        case KeySym.escape: return state.isFullscreen ? .action(.toggleFullscreen) : nil
        case KeySym.char("i"): return .action(.showStats(sticky: false))
        case KeySym.char("I"): return .action(.showStats(sticky: true))
        case KeySym.bracketleft: return .action(.setRate(slower(than: state.rate)))
        case KeySym.bracketright: return .action(.setRate(faster(than: state.rate)))
        case KeySym.char("s"): return .action(.captureFrame)
        case KeySym.char("q"), KeySym.char("Q"): return .action(.quit)
        case KeySym.f9: return .action(.togglePlaylist)
        case KeySym.end: return state.live != nil ? .action(.goLive) : nil
        case KeySym.question: return .shortcutsWindow
        default: return nil
        }
    }

    /// The built-in input.conf's command for a key press, nil when it binds none.
    public static func defaultCommand(keyval: UInt32, modifiers: KeyModifiers) -> String? {
        KeyChord(keyval: keyval, modifiers: modifiers).flatMap { DefaultKeys.bindings.command(for: $0) }
    }

    /// The volume after a step, clamped to 0…`max` (`volume-max`: 1.3, mpv's 130 %) and rounded
    /// to whole percent.
    public static func volume(_ v: Double, by delta: Double, max top: Double = PlayerViewState.defaultVolumeMax) -> Double {
        (min(top, max(0, v + delta)) * 100).rounded() / 100
    }

    public static func slower(than rate: Double) -> Double { rates.last { $0 < rate - 1e-9 } ?? rates[0] }
    public static func faster(than rate: Double) -> Double { rates.first { $0 > rate + 1e-9 } ?? rates[rates.count - 1] }

    /// What the shortcuts window lists, in order: the built-in input.conf's keys (`DefaultKeys`),
    /// then the window's own.
    public static var help: [(keys: String, meaning: String)] {
        DefaultKeys.groups.map { (DefaultKeys.shownKeys($0), $0.meaning) } + windowHelp
    }

    static var windowHelp: [(keys: String, meaning: String)] {
        [
            ("[ / ]", tr("Slower or faster (0.25× to 4×)")),
            ("End, the LIVE badge", tr("Go live (a live stream's edge)")),
            ("i / I", tr("Stats for 5 s / on or off")),
            ("double-click", tr("Fullscreen")),
            ("Esc", tr("Leave fullscreen")),
            ("F9", tr("Playlist")),
            ("s", tr("Save the frame as a PNG")),
            ("Ctrl+s", tr("Save the window as a PNG")),
            ("Ctrl+,", tr("Preferences")),
            ("Ctrl+o", tr("Open files")),
            ("Ctrl+Shift+o", tr("Open a folder")),
            ("Ctrl+l", tr("Open a URL")),
            ("?", tr("This list")),
            ("q", tr("Quit")),
        ]
    }
}
