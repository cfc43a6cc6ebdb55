import ArgumentParser
import Foundation
import ReelCore
import ReelEngine
import ReelGLib

/// `reel docs properties|keys` (hidden): the tables docs/SOCKET.md and the README carry, made
/// from the declarations themselves (`make docs`; `PropertyDocsTests` fails on drift).
struct DocsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "docs", abstract: "Print the property or key table the docs carry.",
                                                    shouldDisplay: false)

    @Argument(help: "properties or keys")
    var table: String

    func validate() throws {
        guard ["properties", "keys"].contains(table) else { throw ValidationError("reel docs takes properties or keys.") }
    }

    func run() throws {
        let text: String = try MainActor.assumeIsolated {
            if table == "keys" { return SessionDeclarations.keyTable() }
            var config = PlayerConfiguration(audioSink: "fakesink", videoSink: "fakevideosink")
            config.aspectModes = true
            let player = try Player(configuration: config)
            defer { player.shutdown() }
            let sequencer = QueueSequencer(player: player, queue: PlayQueue([]))
            let commands = QueueCommandTarget(controller: sequencer, intake: QueueIntake(controller: sequencer))
            let registry = IPCCommandRegistry()
            SessionDeclarations.declare(in: registry, commands: commands)
            defer { sequencer.detach() }
            return SessionDeclarations.propertyTable(registry.properties)
        }
        print(text)
    }
}
