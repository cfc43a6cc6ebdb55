import ArgumentParser

/// `reel`: plays files, URLs and playlists. Subcommands add QA tools.
struct ReelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reel",
        abstract: "A media player for Linux over GStreamer (playbin3) and GTK 3.",
        subcommands: [PlayCommand.self, CheckCommand.self, InspectCommand.self, GatewayBenchCommand.self],
        defaultSubcommand: PlayCommand.self)
}
