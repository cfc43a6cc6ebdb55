import Foundation
import ReelCore
import ReelUI

/// The user's key bindings (mpv's input.conf: `--input-conf`, else
/// `$XDG_CONFIG_HOME/reel/input.conf` when there is one), asked before the window's own keys:
/// a bound key runs its command on the road the socket's commands take (`IPCDispatcher` over the
/// one command target), `KEY ignore` unbinds a key. Lines that cannot be used are said once, at
/// start, with their line numbers; a command that fails when pressed is said then.
@MainActor
final class UserKeyBindings {
    private var bindings = InputBindings()
    private let dispatcher: IPCDispatcher

    /// The largest input.conf read (a bigger one is refused, said, and not used).
    static let maxBytes = 1 << 20

    /// The user's file (none: no bindings until `keybind` adds some).
    init(path: String?, target: PlaybackCommandTarget, screenshotDirectory: URL, registry: IPCCommandRegistry = IPCCommandRegistry()) {
        dispatcher = IPCDispatcher(target: target, screenshotDirectory: screenshotDirectory, registry: registry)
        guard let path else { return }
        let name = (path as NSString).lastPathComponent
        let facts = LocalFileFacts(path: path)
        guard facts.isPlayable, (facts.size ?? 0) <= Int64(Self.maxBytes), let data = FileManager.default.contents(atPath: path) else {
            Diagnostics.say(String(format: tr("%@: cannot be read as key bindings (%@); the default keys apply"), name,
                                   facts.kind != nil ? tr("not a regular file of 1 byte to 1 MiB") : tr("no such file")))
            return
        }
        bindings = InputBindings(text: String(decoding: data, as: UTF8.self), name: name, registered: registry.names)
        for problem in bindings.problems.prefix(20) { Diagnostics.say(problem) }
        Log.debug(.app, .info, "input.conf: \(bindings.commands.count) bindings from \(name)")
    }

    /// mpv's `keybind KEY COMMAND` (a client binds a key: python-mpv-jsonipc's `bind_key_press`),
    /// registered by the window session: over the user's file and the defaults.
    func registerKeybind(in registry: IPCCommandRegistry) {
        registry.register("keybind") { [weak self, weak registry] args in
            guard args.count == 2, let key = args[0].ipcString, let command = args[1].ipcString, let chord = KeyChord(parsing: key) else {
                throw IPCError(.invalidArgument, "“keybind” takes a key (input.conf's names: Ctrl+x, SPACE) and a command.")
            }
            if command != "ignore" {
                for part in InputBindings.parts(of: command) {
                    if case .failure(let f) = IPCRequest.parseText(part, registered: registry?.names ?? []) { throw f.error }
                }
            }
            self?.bindings.bind(chord, to: command)
            return .null
        }
    }

    /// The bindings in force, for the `?` window: the key, and its command (or "does nothing").
    var listing: [(keys: String, meaning: String)] {
        bindings.commands.sorted { $0.key.description < $1.key.description }
            .map { ($0.key.description, $0.value == "ignore" ? "does nothing (unbound)" : $0.value) }
    }

    /// Runs the user's binding for a key press; false when the key is not bound (the defaults apply).
    func handle(keyval: UInt32, modifiers: KeyModifiers) -> Bool {
        guard let chord = KeyChord(keyval: keyval, modifiers: modifiers) else { return false }
        return handle(chord)
    }

    /// Runs the user's binding for a chord (a key, a mouse button, a wheel step); false when none.
    func handle(_ chord: KeyChord) -> Bool {
        guard let command = bindings.command(for: chord) else { return false }
        Log.debug(.app, .info, "input.conf: \(chord) → \(command)")
        if command == "ignore" { return true }
        for part in InputBindings.parts(of: command) {
            dispatcher.handle(part) { reply in
                guard let object = try? JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any],
                      let error = object["error"] as? String, error != "success" else { return }
                Diagnostics.say("\(chord) (\(part)): \(object["message"] as? String ?? error)")
            }
        }
        return true
    }

    /// The input.conf used when none is given: `$XDG_CONFIG_HOME/reel/input.conf`, if it exists.
    nonisolated static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (NSHomeDirectory() + "/.config")
        let path = config + "/reel/input.conf"
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }
}
