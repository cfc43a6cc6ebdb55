import ArgumentParser
import Foundation
import ReelCore
import ReelEngine
import ReelUI

/// `reel`: plays files, URLs and playlists. Subcommands add QA tools.
struct ReelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reel",
        abstract: "A media player for Linux over GStreamer (playbin3) and GTK 3.",
        subcommands: [PlayCommand.self, CheckCommand.self, ReviewCommand.self, InspectCommand.self, GatewayBenchCommand.self, DocsCommand.self,
                      VersionCommand.self],
        defaultSubcommand: PlayCommand.self)

    /// `reel --version` and `reel version`: Reel's version, and the GStreamer and GTK it runs on.
    static var versionText: String { "Reel \(ReelVersion.current)\nGStreamer \(GStreamerRuntime.libraryVersion)\nGTK \(UIRuntime.gtkVersion)" }
}

/// `reel version`: as `reel --version`.
struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "version", abstract: "Print Reel's version, and GStreamer's and GTK's.")

    func run() throws { print(ReelCommand.versionText) }
}

extension ReelCommand {
    /// `main()` with one exit-status scheme: a command line that cannot be honoured (an unknown
    /// option, a value out of range, a file an option names that cannot be used) exits 2, as the
    /// README says, not the argument parser's 64; help and version exit 0; everything else as the
    /// command decides (0 played, 1 an item failed).
    ///
    /// A command that ran ends through `ProcessEnd` (`_exit`), never by returning from `main`:
    /// `reel check` and `reel review` leave the gateway's and GStreamer's threads running, and
    /// `exit()`'s global destructors beside them crashed `reel check` after its report was written
    /// (CI: a protected HLS check ended with SIGSEGV, status 11, in a busy lane).
    static func mainExitingTwoOnUsage() {
        var command: ParsableCommand
        do {
            // The user's defaults first (reel.conf), the command line after them.
            let config = ConfigFile.apply(to: Array(CommandLine.arguments.dropFirst()))
            for problem in config.problems { Log.say(problem) }
            command = try parseAsRoot(config.arguments)
        } catch {
            if exitCode(for: error) == .validationFailure {
                Log.say(fullMessage(for: error), prefix: "")
                Log.say(tr("Usage: see 'reel --help'."), prefix: "")
                Foundation.exit(2)
            }
            exit(withError: error)  // help, version: nothing has started yet
        }
        do {
            try command.run()
        } catch {
            // `reel check --help` is answered from run(): the parser prints it on stdout, status 0.
            if exitCode(for: error) == .success { exit(withError: error) }
            let message = fullMessage(for: error)
            if !message.isEmpty { Log.say(message, prefix: "") }
            // A value the command checks as it starts (`--autoload=maybe`, `--equalizer=loudest`) is
            // the command line's fault as much as a parse error: 2, as the README says, not 64.
            let usage = exitCode(for: error) == .validationFailure
            ProcessEnd.now(status: usage ? 2 : exitCode(for: error).rawValue)
        }
        ProcessEnd.now(status: 0)
    }
}
