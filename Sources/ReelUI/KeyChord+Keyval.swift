import ReelCore

extension KeyChord {
    /// The special keys by their X keysym (GDK keyvals), as input.conf names them.
    static let specialKeyvals: [UInt32: String] = {
        var names: [UInt32: String] = [
            KeySym.space: "SPACE", 0xff0d: "ENTER", KeySym.escape: "ESC", KeySym.backSpace: "BS", KeySym.delete: "DEL", 0xff09: "TAB",
            0xff63: "INS", 0xff50: "HOME", KeySym.end: "END", KeySym.pageUp: "PGUP", KeySym.pageDown: "PGDWN",
            KeySym.left: "LEFT", KeySym.right: "RIGHT", KeySym.up: "UP", KeySym.down: "DOWN", KeySym.numbersign: "SHARP",
            KeySym.kpAdd: "KP_ADD", KeySym.kpSubtract: "KP_SUBTRACT", 0xff8d: "KP_ENTER",
            KeySym.kpLeft: "KP_LEFT", KeySym.kpUp: "KP_UP", KeySym.kpRight: "KP_RIGHT", KeySym.kpDown: "KP_DOWN",
            // The keyboard's media keys (XF86Audio…).
            0x1008ff14: "PLAY", 0x1008ff31: "PAUSE", 0x1008ff15: "STOP", 0x1008ff17: "NEXT", 0x1008ff16: "PREV",
            0x1008ff12: "MUTE", 0x1008ff13: "VOLUME_UP", 0x1008ff11: "VOLUME_DOWN",
        ]
        for i in 0..<12 { names[0xffbe + UInt32(i)] = "F\(i + 1)" }
        for i in 0..<10 { names[0xffb0 + UInt32(i)] = "KP\(i)" }
        return names
    }()

    /// A mouse button over the video (GDK's numbering: 1 left, 2 middle, 3 right, 8 back, 9
    /// forward; `double`: the second press of a double click), as input.conf names it.
    public init?(button: UInt32, double: Bool, modifiers: KeyModifiers) {
        let name: String
        switch (button, double) {
        case (1, false): name = "MBTN_LEFT"
        case (1, true): name = "MBTN_LEFT_DBL"
        case (2, false): name = "MBTN_MID"
        case (3, false): name = "MBTN_RIGHT"
        case (8, false): name = "MBTN_BACK"
        case (9, false): name = "MBTN_FORWARD"
        default: return nil
        }
        self.init(modifiers: Self.mouseModifiers(modifiers), key: name)
    }

    /// A wheel step over the video: `dy` < 0 up, > 0 down; `dx` < 0 left, > 0 right.
    public init?(wheel dy: Int, dx: Int = 0, modifiers: KeyModifiers) {
        let name = dy < 0 ? "WHEEL_UP" : dy > 0 ? "WHEEL_DOWN" : dx < 0 ? "WHEEL_LEFT" : dx > 0 ? "WHEEL_RIGHT" : nil
        guard let name else { return nil }
        self.init(modifiers: Self.mouseModifiers(modifiers), key: name)
    }

    private static func mouseModifiers(_ modifiers: KeyModifiers) -> Modifiers {
        var mods: Modifiers = []
        if modifiers.contains(.shift) { mods.insert(.shift) }
        if modifiers.contains(.control) { mods.insert(.ctrl) }
        if modifiers.contains(.alt) { mods.insert(.alt) }
        return mods
    }

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

    /// The key press that makes this chord (the inverse of `init(keyval:modifiers:)`): mpv's
    /// `keypress` over the socket takes the road of a real key.
    public var keyPress: (keyval: UInt32, modifiers: KeyModifiers)? {
        var mods: KeyModifiers = []
        if modifiers.contains(.ctrl) { mods.insert(.control) }
        if modifiers.contains(.alt) { mods.insert(.alt) }
        if modifiers.contains(.shift) { mods.insert(.shift) }
        if let keyval = Self.specialKeyvals.first(where: { $0.value == key && !(0x21...0x7e).contains($0.key) })?.key
            ?? Self.specialKeyvals.first(where: { $0.value == key })?.key {
            return (keyval, mods)
        }
        guard key.count == 1, let scalar = key.unicodeScalars.first, scalar.value >= 0x20, scalar.value <= 0xff else { return nil }
        if Character(scalar).isUppercase { mods.insert(.shift) }
        return (scalar.value, mods)
    }
}
