import Foundation
import ReelCore
import ReelEngine
import ReelGLib

// The gapless advisor: which next item is handed to playbin3's about-to-finish, and when a
// next item is loaded at the end instead (see `refreshPreroll`).
extension QueueController {
    /// Tells the player which item to switch to gaplessly, or none.
    func refreshPreroll() {
        guard gapless, let current = queue.current, let next = queue.upcoming, canSwitchGaplessly(from: current, to: next) else {
            engine.prepareNext(item: nil)
            return
        }
        // A local next item is probed first (GstDiscoverer, off the main thread): only one that
        // opens and has the same kinds of streams as the current item is handed to
        // about-to-finish. playbin3 in 1.22 handles the others badly inside a gapless switch: a
        // next item that fails to open ends the current one early (its error arrives while the
        // current still plays), and a switch from audio+video to audio only stops at the end
        // with no EOS (the end-stall watchdog then abandons that pipeline). Those are loaded at
        // the end. The current item's layout is probed too when it is local, and read from the
        // player once known when it is not (no extra request to its server).
        if MediaLocator.localPath(of: next.uri) != nil {
            var unprobed = [next]
            let currentLayout: Layout??
            if MediaLocator.localPath(of: current.uri) != nil {
                currentLayout = layouts[current.id]
                unprobed.insert(current, at: 0)
            } else {
                currentLayout = eventItemID == current.id && engine.status == .readyToPlay
                    ? .some(Layout(video: engine.mediaInfo.width != nil, audio: engine.mediaInfo.audioCodec != nil)) : nil
            }
            switch (currentLayout, layouts[next.id]) {
            case (.some(let a), .some(let b)) where a != nil && a == b:
                break
            case (.some, .some):
                engine.prepareNext(item: nil)
                return
            default:
                engine.prepareNext(item: nil)
                probeLayouts(unprobed)  // a network current item: `.mediaInfo` prepares again
                return
            }
        }
        guard let uri = try? playableURI(next) else {
            engine.prepareNext(item: nil)
            return
        }
        engine.prepareNext(item: PlaybackItem(id: next.id, uri: next.uri, playedURI: uri, title: next.displayTitle, options: next.options))
    }

    /// What a probe found in an item: whether it has video and audio; nil when it did not open.
    struct Layout: Equatable {
        var video: Bool
        var audio: Bool
    }

    /// Probes the local items not probed yet on another thread, then prepares the switch again.
    func probeLayouts(_ items: [QueueItem]) {
        let wanted = items.filter { MediaLocator.localPath(of: $0.uri) != nil && layouts[$0.id] == nil && !probing.contains($0.id) }
        guard !wanted.isEmpty else { return }
        for item in wanted { probing.insert(item.id) }
        let jobs = wanted.map { ($0.id, $0.uri) }
        Thread.detachNewThread { [weak self] in
            let found: [(QueueItem.ID, Layout?)] = jobs.map { id, uri in
                let probe = MediaProbe.probe(uri, timeout: 5)
                return (id, probe.error == nil ? Layout(video: !probe.video.isEmpty, audio: !probe.audio.isEmpty) : nil)
            }
            MainQueue.shared.async { [weak self] in
                guard let self else { return }
                for (id, layout) in found {
                    self.probing.remove(id)
                    if self.queue.item(id) != nil { self.layouts[id] = .some(layout) }  // not one removed meanwhile
                }
                self.refreshPreroll()
            }
        }
    }

    func canSwitchGaplessly(from current: QueueItem, to next: QueueItem) -> Bool {
        guard current.headers.isEmpty, next.headers.isEmpty else { return false }
        if let path = MediaLocator.localPath(of: next.uri) {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
            return size > 0
        }
        return true
    }
}
