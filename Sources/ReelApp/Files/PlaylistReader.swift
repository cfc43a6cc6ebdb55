import Foundation
import ReelCore
import ReelGLib

/// Reads the playlist of an HLS item when it becomes current, off the main thread, from where the
/// engine plays it (the gateway's URL for a routed item, so its credentials go with it and
/// nothing secret travels in a URL): its problems against
/// RFC 8216 go to stderr, once per item (playback warns, and plays on, as other players do), and
/// a master's renditions go to the sequencer (`renditionsFound`) for the quality choice.
@MainActor
final class PlaylistReader {
    private var warned: Set<String> = []
    /// Where warnings go (stderr).
    var say: (String) -> Void = { Diagnostics.say($0) }
    /// A master's renditions for the item `id`.
    var onRenditions: ([HLSVariant], QueueItem.ID) -> Void = { _, _ in }

    /// - Parameter playedURI: what the engine plays for `item` (its own URI, or the gateway's).
    /// - Parameter routed: the item plays through the gateway, which tells its renditions as it
    ///   serves the master (`RenditionAnnouncer`): a DASH MPD is not fetched again here.
    func itemChanged(_ item: QueueItem?, playedURI: String?, routed: Bool = false) {
        guard let item, let url = URL(string: playedURI ?? MediaLocator.uri(for: item.uri)) else { return }
        if DASHManifest.isDASH(item.uri) {
            if !routed { readDASH(url, id: item.id) }
            return
        }
        guard CheckRunner.isHLS(item.uri) else { return }
        let warn = !warned.contains(item.uri)
        warned.insert(item.uri)
        let name = item.displayTitle, id = item.id
        Thread.detachNewThread { [weak self] in
            let data = HLSStreamCheck.fetch(url, timeout: 10)
            guard let data, let parsed = try? HLSPlaylist.parseReporting(String(decoding: data, as: UTF8.self), url: url) else { return }
            let variants = parsed.playlist.master.map(RenditionSelector.renditions) ?? []
            var line: String?
            if warn, !parsed.problems.isEmpty {
                let shown = parsed.problems.prefix(5).map { Redactor.redactText($0.description) }
                let more = parsed.problems.count > 5 ? String(format: tr(" (and %@ more; reel inspect lists them all)"), "\(parsed.problems.count - 5)") : ""
                line = String(format: tr("%@: the playlist deviates from RFC 8216 (played anyway): "), "\(name)") + shown.joined(separator: "; ") + more
            }
            MainQueue.shared.async { [weak self, line] in
                guard let self else { return }
                if let line { self.say(line) }
                if !variants.isEmpty { self.onRenditions(variants, id) }
            }
        }
    }

    /// A DASH item's MPD (through the gateway when routed): its video Representations are the
    /// renditions (`DASHManifest`).
    private func readDASH(_ url: URL, id: QueueItem.ID) {
        Thread.detachNewThread { [weak self] in
            guard let data = HLSStreamCheck.fetch(url, timeout: 10) else { return }
            let renditions = DASHManifest.videoRenditions(String(decoding: data, as: UTF8.self))
            guard renditions.count > 1 else { return }
            MainQueue.shared.async { [weak self] in self?.onRenditions(renditions, id) }
        }
    }
}
