import Foundation

/// Real X11 input for UI tests under Xvfb, through xdotool (XTEST): the events go through the X
/// server to the focused window exactly as a keyboard's would.
public enum XKeyboard {
    /// Gives `window` the input focus (there is no window manager under Xvfb).
    @discardableResult
    public static func focus(_ window: UInt) -> Bool {
        ProcessRunner.run("/usr/bin/xdotool", ["windowfocus", "--sync", String(window)], timeout: 10).status == 0
    }

    /// Presses and releases each key chord ("space", "shift+Left", "ctrl+o", "less", "F11").
    @discardableResult
    public static func key(_ chords: String..., window: UInt? = nil) -> Bool {
        if let window { focus(window) }
        return ProcessRunner.run("/usr/bin/xdotool", ["key", "--delay", "20"] + chords, timeout: 10).status == 0
    }

    /// Types text into the focused window.
    @discardableResult
    public static func type(_ text: String) -> Bool {
        ProcessRunner.run("/usr/bin/xdotool", ["type", "--delay", "5", text], timeout: 20).status == 0
    }

    /// Moves the pointer to (x, y) relative to `window`, as a real pointer motion (XTEST, in
    /// screen coordinates: `mousemove --window` warps, and GTK does not see warps as drags).
    @discardableResult
    public static func moveMouse(window: UInt, x: Int, y: Int) -> Bool {
        let geometry = ProcessRunner.run("/usr/bin/xdotool", ["getwindowgeometry", "--shell", String(window)], timeout: 10)
        var origin = (x: 0, y: 0)
        for line in geometry.lines {
            let parts = line.split(separator: "=")
            guard parts.count == 2, let v = Int(parts[1]) else { continue }
            if parts[0] == "X" { origin.x = v } else if parts[0] == "Y" { origin.y = v }
        }
        return ProcessRunner.run("/usr/bin/xdotool", ["mousemove", String(origin.x + x), String(origin.y + y)], timeout: 10).status == 0
    }

    /// Moves the pointer to the screen's bottom-right corner, away from any window placed at the
    /// origin: a pointer an earlier test left over a button draws that button hovered (prelit),
    /// and a golden captured then differs by that button's pixels.
    @discardableResult
    public static func parkPointer() -> Bool {
        let display = ProcessRunner.run("/usr/bin/xdotool", ["getdisplaygeometry"], timeout: 10)
        let size = display.lines.first?.split(separator: " ").compactMap { Int($0) } ?? []
        guard size.count == 2 else { return false }
        return ProcessRunner.run("/usr/bin/xdotool", ["mousemove", String(size[0] - 1), String(size[1] - 1)], timeout: 10).status == 0
    }

    /// Clicks a mouse button (1 left, 4 wheel up, 5 wheel down) `repeat` times at (x, y) of `window`.
    @discardableResult
    public static func click(window: UInt, x: Int, y: Int, button: Int = 1, repeat count: Int = 1) -> Bool {
        moveMouse(window: window, x: x, y: y)
        return ProcessRunner.run("/usr/bin/xdotool", ["click", "--repeat", String(count), "--delay", "40", String(button)], timeout: 10).status == 0
    }

    /// Drags with the left button held from (x1, y1) to (x2, y2) of `window`, in steps as a hand
    /// moves, through XTEST.
    @discardableResult
    public static func drag(window: UInt, from: (x: Int, y: Int), to: (x: Int, y: Int)) -> Bool {
        moveMouse(window: window, x: from.x, y: from.y)
        guard ProcessRunner.run("/usr/bin/xdotool", ["mousedown", "1"], timeout: 10).status == 0 else { return false }
        usleep(50_000)
        for i in 1...8 {
            moveMouse(window: window, x: from.x + (to.x - from.x) * i / 8, y: from.y + (to.y - from.y) * i / 8)
            usleep(30_000)
        }
        return ProcessRunner.run("/usr/bin/xdotool", ["mouseup", "1"], timeout: 10).status == 0
    }
}
