import Foundation
import ReelCore
import ReelGLib

/// Playback warns about HLS playlists that deviate from RFC 8216 (it still plays them, as other
/// players do): when an HLS item becomes current, its playlist is read off the main thread and
/// parsed leniently, and its problems go to stderr, once per item, the first few by line. Items
/// that need credentials are not read again here (the gateway serves them; `reel inspect` and
/// `reel check` report on them).
@MainActor
final class PlaylistWarnings {
    private var warned: Set<String> = []
    /// Where the lines go (stderr; a test may collect them).
    var say: (String) -> Void = { Diagnostics.say($0) }

    func itemChanged(_ item: QueueItem?, router: GatewayRouter?) {
        guard let item, CheckRunner.isHLS(item.uri), !warned.contains(item.uri) else { return }
        if let router, router.isProtectedStream(item.uri, arrival: item.arrival, entry: (try? ProtectedEntryOptions(options: item.options)) ?? ProtectedEntryOptions()) {
            return
        }
        guard let url = URL(string: MediaLocator.uri(for: item.uri)) else { return }
        warned.insert(item.uri)
        let name = item.displayTitle
        Thread.detachNewThread { [weak self] in
            guard let data = HLSStreamCheck.fetch(url, timeout: 10),
                  let parsed = try? HLSPlaylist.parseReporting(String(decoding: data, as: UTF8.self), url: url), !parsed.problems.isEmpty else { return }
            let shown = parsed.problems.prefix(5).map { Redactor.redactText($0.description) }
            let more = parsed.problems.count > 5 ? " (and \(parsed.problems.count - 5) more; reel inspect lists them all)" : ""
            let line = "\(name): the playlist deviates from RFC 8216 (played anyway): " + shown.joined(separator: "; ") + more
            MainQueue.shared.async { [weak self] in self?.say(line) }
        }
    }
}
