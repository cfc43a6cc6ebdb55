import Foundation
import ReelCore

/// Turns `reel check`'s arguments into the items to check.
enum CheckInputs {
    struct Entry: Sendable {
        var input: String
        var title: String?
        /// Set when the entry cannot be checked at all (e.g. an unreadable playlist).
        var error: PlaybackError?
    }

    static func expand(_ inputs: [String]) -> [Entry] {
        inputs.flatMap { input -> [Entry] in
            if let entries = expandPlaylist(input) { return entries }
            return [Entry(input: input)]
        }
    }

    /// HOOK (issue 4, playlists): return the playlist's entries, resolved against the playlist's
    /// location, when `input` is an M3U/M3U8 (non-HLS)/PLS/XSPF playlist; an entry with `error`
    /// (kind .invalidPlaylist) when it cannot be parsed; nil when `input` is not a playlist, so
    /// that it is checked as a media item. HLS playlists are media items: return nil for them.
    /// Until the parsers land, every input is a media item.
    static func expandPlaylist(_ input: String) -> [Entry]? {
        nil
    }
}
