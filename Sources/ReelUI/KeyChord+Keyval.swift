import ReelCore

extension KeyChord {
    /// The special keys by their X keysym (GDK keyvals), as input.conf names them.
    static let specialKeyvals: [UInt32: String] = {
        var names: [UInt32: String] = [
            KeySym.space: "SPACE", 0xff0d: "ENTER", KeySym.escape: "ESC", KeySym.backSpace: "BS", KeySym.delete: "DEL", 0xff09: "TAB",
            0xff63: "INS", 0xff50: "HOME", KeySym.end: "END", KeySym.pageUp: "PGUP", KeySym.pageDown: "PGDWN",
            KeySym.left: "LEFT", KeySym.right: "RIGHT", KeySym.up: "UP", KeySym.down: "DOWN", KeySym.numbersign: "SHARP",
            KeySym.kpAdd: "KP_ADD", KeySym.kpSubtract: "KP_SUBTRACT", 0xff8d: "KP_ENTER",
            // The keyboard's media keys (XF86Audio…).
            0x1008ff14: "PLAY", 0x1008ff31: "PAUSE", 0x1008ff15: "STOP", 0x1008ff17: "NEXT", 0x1008ff16: "PREV",
            0x1008ff12: "MUTE", 0x1008ff13: "VOLUME_UP", 0x1008ff11: "VOLUME_DOWN",
        ]
        for i in 0..<12 { names[0xffbe + UInt32(i)] = "F\(i + 1)" }
        for i in 0..<10 { names[0xffb0 + UInt32(i)] = "KP\(i)" }
        return names
    }()

    /// The chord of a key press (a GDK keyval and modifiers): Shift is part of a printed
    /// character (`A`, `+`) and a modifier of special keys only, as in mpv. nil for keys that
    /// have no input.conf name (a lone modifier, say).
    public init?(keyval: UInt32, modifiers: KeyModifiers) {
        var mods: Modifiers = []
        if modifiers.contains(.control) { mods.insert(.ctrl) }
        if modifiers.contains(.alt) { mods.insert(.alt) }
        if let name = Self.specialKeyvals[keyval] {
            // Shift is part of a printed character (# is Shift+3 on most layouts).
            if modifiers.contains(.shift) && !(0x21...0x7e).contains(keyval) { mods.insert(.shift) }
            self.init(modifiers: mods, key: name)
        } else if (0x21...0x7e).contains(keyval) || (0xa1...0xff).contains(keyval), let scalar = Unicode.Scalar(keyval) {
            self.init(modifiers: mods, key: String(Character(scalar)))
        } else {
            return nil
        }
    }
}
