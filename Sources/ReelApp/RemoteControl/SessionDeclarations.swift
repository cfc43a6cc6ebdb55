import Foundation
import ReelCore
import ReelEngine
import ReelUI

/// Every property and command of a session, declared once by its owner, in one place of
/// assembly: the transport and the snapshot's (`PlaybackProperties`), the player's and its
/// features' (`Player.declare(into:)`), the queue's (`QueueCommandTarget.declareProperties`,
/// `QueueOrderCommands`). The socket adds `script-message`, a window `keybind` and `keypress`.
/// `reel docs properties` prints the table docs/SOCKET.md carries from the same declarations.
@MainActor
enum SessionDeclarations {
    static func declare(in registry: IPCCommandRegistry, commands: QueueCommandTarget) {
        PlaybackProperties.declare(in: registry.properties, target: commands)
        registry.properties.snapshot = { [weak commands] in commands?.snapshot ?? PlaybackSnapshot() }
        commands.player.declare(into: registry)
        commands.declareProperties(in: registry.properties)
        QueueOrderCommands.register(in: registry, sequencer: commands.controller)
    }

    /// docs/SOCKET.md's property table: every declared property, its kind, what it takes, who owns it.
    static func propertyTable(_ table: PropertyTable) -> String {
        var lines = ["| property | kind | takes | set | owner | what it is |", "|---|---|---|---|---|---|"]
        for p in table.declared {
            let names = ([p.name] + p.aliases).map { "`\($0)`" }.joined(separator: ", ")
            let takes = p.isWritable ? p.kind.takes : "—"
            lines.append("| \(names) | \(p.kind.typeName) | \(takes) | \(p.isWritable ? "yes" : "no") | \(p.owner) | \(p.summary) |")
        }
        lines.append("| `playlist/N`, `playlist/N/filename`, `…/title`, `…/id`, `…/current`, `…/playing` | JSON | — | no | queue | One entry (mpv's paging). |")
        return lines.joined(separator: "\n")
    }

    /// The README's key table: the built-in input.conf (`DefaultKeys`) with its commands, then the
    /// window's own keys.
    static func keyTable() -> String {
        var lines = ["| keys | action | input.conf |", "|---|---|---|"]
        for g in DefaultKeys.groups {
            var commands: [String] = []
            for (_, command) in g.bindings where !commands.contains(command) { commands.append(command) }
            lines.append("| \(DefaultKeys.shownKeysForDocs(g)) | \(g.meaning) | \(commands.map { "`\($0)`" }.joined(separator: ", ")) |")
        }
        for (keys, meaning) in KeyMap.help.dropFirst(DefaultKeys.groups.count) { lines.append("| \(keys) | \(meaning) | (the window's own) |") }
        return lines.joined(separator: "\n")
    }
}
