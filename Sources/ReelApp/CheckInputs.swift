import Foundation
import ReelCore

/// Turns `reel check`'s arguments into the items to check: files and URLs as they are,
/// playlists expanded in place exactly as `reel play` expands them (`QueueBuilder`: relative
/// entries resolved, HLS kept as one stream, a network playlist may not name local files). A
/// playlist line that could not be read becomes a failed row naming the playlist and the line,
/// so that the report says what was lost as well as what played.
enum CheckInputs {
    struct Entry: Sendable {
        var input: String
        var title: String?
        /// The playlist entry's own options (headers, bucket…), for the gateway.
        var options: [String: [String]] = [:]
        /// An input of the command line or an entry of a playlist given there (credentials).
        var arrival: ItemArrival = .commandLine
        /// Set when the entry cannot be checked at all (an unreadable playlist or line).
        var error: PlaybackError?
    }

    /// - Parameter router: fetches network playlists with the credentials the rule gives them.
    static func expand(_ inputs: [String], router: GatewayRouter? = nil) -> [Entry] {
        inputs.flatMap { input -> [Entry] in
            let built = QueueBuilder.build([input], router: router)
            return built.items.map { Entry(input: $0.uri, title: $0.title, options: $0.options, arrival: $0.arrival) }
                + built.errors.map { Entry(input: input, title: nil, error: $0) }
        }
    }
}
