import Foundation
import ReelCore
import ReelGLib
import ReelUI

/// mpv's input commands for UI tests, over the socket (and input.conf): `keypress KEY`,
/// `keydown KEY`, `keyup KEY` (KEY in input.conf's names: `Ctrl+o`, `Shift+RIGHT`, `SPACE`),
/// `mouse X Y [BUTTON [single|double]]` (mpv's buttons: 0 left, 1 middle, 2 right; no button: a
/// move) and `mouse-drag X1 Y1 X2 Y2` (the left button held between), in window coordinates.
/// Each is a GDK event handed to GTK (`PlayerWindow.sendKey`, `sendPointer`), the same on X11 and
/// Wayland, so a test of a key proves the key: the bindings, the focus, the widget under the point.
@MainActor
enum WindowInputCommands {
    static func register(in registry: IPCCommandRegistry, window: @escaping @MainActor () -> PlayerWindow?) {
        registerTree(in: registry, window: window)
        func target() throws -> PlayerWindow {
            guard let w = window() else { throw IPCError(.unavailable, "There is no window yet.") }
            return w
        }
        func chord(_ name: String, _ args: [JSONValue]) throws -> (keyval: UInt32, modifiers: KeyModifiers) {
            guard args.count == 1, let key = args[0].ipcString, let chord = KeyChord(parsing: key), let press = chord.keyPress else {
                throw IPCError(.invalidArgument, "“\(name)” takes one key in input.conf's names (Ctrl+o, Shift+RIGHT, SPACE).")
            }
            return press
        }
        for (name, down, up) in [("keypress", true, true), ("keydown", true, false), ("keyup", false, true)] {
            registry.register(name) { args in
                let key = try chord(name, args)
                try target().sendKey(keyval: key.keyval, modifiers: key.modifiers, press: down, release: up)
                settle()
                return .null
            }
        }
        registry.register("mouse") { args in
            guard (2...4).contains(args.count), let x = whole(args[0]), let y = whole(args[1]) else {
                throw IPCError(.invalidArgument, "“mouse” takes X Y [BUTTON [single|double]] in window coordinates.")
            }
            let w = try target()
            try check(w.sendPointer(.move(dragging: false), x: x, y: y), x, y)
            if args.count >= 3 {
                guard let b = whole(args[2]), (0...2).contains(b) else { throw IPCError(.invalidArgument, "“mouse”: BUTTON is 0 (left), 1 (middle) or 2 (right).") }
                let mode = args.count == 4 ? args[3].ipcString ?? "" : "single"
                guard ["single", "double"].contains(mode) else { throw IPCError(.invalidArgument, "“mouse”: the mode is single or double.") }
                let button = UInt32([1, 2, 3][b])  // GDK's numbering
                w.sendPointer(.press(button), x: x, y: y)
                w.sendPointer(.release(button), x: x, y: y)
                if mode == "double" {
                    w.sendPointer(.press(button), x: x, y: y)
                    w.sendPointer(.doublePress(button), x: x, y: y)
                    w.sendPointer(.release(button), x: x, y: y)
                }
            }
            settle()
            return .null
        }
        registry.register("mouse-drag") { args in
            guard args.count == 4, let x1 = whole(args[0]), let y1 = whole(args[1]), let x2 = whole(args[2]), let y2 = whole(args[3]) else {
                throw IPCError(.invalidArgument, "“mouse-drag” takes X1 Y1 X2 Y2 in window coordinates.")
            }
            let w = try target()
            try check(w.sendPointer(.move(dragging: false), x: x1, y: y1), x1, y1)
            w.sendPointer(.press(1), x: x1, y: y1)
            settle()
            // In steps, as a hand drags: GTK's drag thresholds and drop targets see the way.
            for i in 1...12 {
                let f = Double(i) / 12
                w.sendPointer(.move(dragging: true), x: x1 + Int((Double(x2 - x1) * f).rounded()), y: y1 + Int((Double(y2 - y1) * f).rounded()))
                GLibMainLoop.spin(for: 0.02)
            }
            w.sendPointer(.release(1), x: x2, y: y2)
            settle()
            return .null
        }
    }

    /// `window-tree`: the widgets as data (`WidgetTree`), for a test to find what it clicks.
    static func registerTree(in registry: IPCCommandRegistry, window: @escaping @MainActor () -> PlayerWindow?) {
        registry.register("window-tree") { args in
            guard args.isEmpty else { throw IPCError(.invalidArgument, "“window-tree” takes no argument.") }
            guard let w = window() else { throw IPCError(.unavailable, "There is no window yet.") }
            return w.widgetTree
        }
    }

    private static func check(_ result: PlayerWindow.PointerResult, _ x: Int, _ y: Int) throws {
        switch result {
        case .sent: return
        case .outside: throw IPCError(.invalidArgument, "(\(x), \(y)) is outside the window.")
        case .noPointer: throw IPCError(.unavailable, "The display has no pointer (a compositor without a seat, as weston's headless backend): no click can be made.")
        }
    }

    private static func whole(_ v: JSONValue) -> Int? { v.ipcNumber.flatMap { BoundedNumber.wholeNumber($0, in: -65_535...65_535) } }

    /// What the event started is done before the reply (a dialog mapped, a seek asked for).
    private static func settle() { GLibMainLoop.spin(for: 0.05) }
}
