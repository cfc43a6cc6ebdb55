import Foundation
import ReelCore
import ReelGLib
import ReelUI

/// The window's road to commands and properties (the socket's `IPCDispatcher` over the
/// session's registry), its key bindings (the user's input.conf and mpv's `keybind`), and what a
/// UI test drives it by: `keypress`, `mouse`, `window-tree` (`WindowInputCommands`), the
/// `capture-mask` property and `--dump-tree`. Owned by the `WindowSession`.
@MainActor
final class WindowCommands {
    let dispatcher: IPCDispatcher
    /// The user's input.conf (and `keybind`'s), asked before the built-in keys.
    let keyBindings: UserKeyBindings
    private let dumpTree: String?
    private var treeDumped = false
    private var maskAreas: [MaskArea] = []

    init(options: PlaybackOptions, commands: QueueCommandTarget, captureDirectory: URL, registry: IPCCommandRegistry, window: PlayerWindow) {
        dispatcher = IPCDispatcher(target: commands, screenshotDirectory: captureDirectory, registry: registry)
        keyBindings = UserKeyBindings(path: options.inputConf, target: commands, screenshotDirectory: captureDirectory, registry: registry)
        dumpTree = options.dumpTree
        keyBindings.registerKeybind(in: registry)
        WindowInputCommands.register(in: registry) { [weak window] in window }
        declareCaptureMask(in: registry.properties)
        let keys = keyBindings
        window.userKeys.handle = { keyval, modifiers in keys.handle(keyval: keyval, modifiers: modifiers) }
        window.userKeys.handleMouse = { chord in keys.handle(chord) }
        window.userKeys.listing = keys.listing
    }

    /// The first item's first frame is shown: `--dump-tree` writes the tree (after this turn's render).
    func firstFrame(_ window: PlayerWindow?) {
        guard let path = dumpTree, !treeDumped else { return }
        treeDumped = true
        MainQueue.shared.after(0.3) { [weak window] in
            guard let window else { return }
            // A private file: its titles are the user's.
            do { try PrivateFile.write(Data((window.widgetTree.serialized() + "\n").utf8), to: path, mode: 0o600) } catch {
                Diagnostics.say("--dump-tree: \(path): \(error.localizedDescription)")
            }
        }
    }

    /// A window capture with what may move left out (`capture-mask`): flat grey, the same in every run.
    func mask(png path: String, in window: PlayerWindow) throws {
        let rects = maskAreas.compactMap { area -> (x: Int, y: Int, width: Int, height: Int)? in
            switch area {
            case .rect(let x, let y, let w, let h): (x, y, w, h)
            case .widget(let name): window.widgetRect(named: name)
            }
        }
        try GoldenFrameImages.fill(png: path, rects: rects)
    }

    /// `capture-mask`: rectangles or widgets by accessible name or id (from `window-tree`).
    private func declareCaptureMask(in table: PropertyTable) {
        table.declare("WindowSession", [
            Property("capture-mask", kind: .json, summary: "Areas filled flat grey in window captures: \"X,Y,W,H\" or a widget's accessible name or id (from window-tree).",
                     read: { [weak self] _ in .array((self?.maskAreas ?? []).map { area in
                         switch area {
                         case .rect(let x, let y, let w, let h): .string("\(x),\(y),\(w),\(h)")
                         case .widget(let name): .string(name)
                         }
                     }) }) { [weak self] value in
                guard case .array(let items) = value.json, items.count <= 100 else {
                    throw IPCError(.propertyFormat, "“capture-mask” takes a list of \"X,Y,W,H\" or widget names.")
                }
                self?.maskAreas = try items.map { item in
                    guard let text = item.ipcString, let area = MaskArea.parse(text, widgets: true) else {
                        throw IPCError(.invalidArgument, "“capture-mask”: “\(item.serialized().prefix(40))” is neither X,Y,W,H nor a widget's name.")
                    }
                    return area
                }
            },
        ])
    }
}
