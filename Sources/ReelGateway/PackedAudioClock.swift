import Foundation
import ReelCore
import Synchronization

/// Each media playlist's timeline as the gateway served it (`HLSSegmentClock`), and the start of
/// every segment it listed, by the segment's upstream URL: what a bare packed-audio segment's ID3
/// timestamp says (`PackedAudioTimestamp`). Per item; forgotten with it.
final class PackedAudioClock: Sendable {
    private struct State {
        var clocks: [Int: HLSSegmentClock] = [:]  // by playlist resource
        var starts: [URL: Double] = [:]
    }

    private let items = Mutex<[GatewayItemID: State]>([:])
    /// Segment starts kept per item at most (a live playlist's, over hours).
    let capacity: Int

    init(capacity: Int = 20_000) { self.capacity = capacity }

    /// A media playlist served for `item` (resource `playlist`, fetched from `base`); anything else
    /// (a master, text that is not a playlist) is ignored.
    func served(_ text: String, base: URL, item: GatewayItemID, playlist: Int) {
        guard text.contains("#EXTINF"), case .media(let media)? = try? HLSPlaylist.parse(text) else { return }
        items.withLock { items in
            var state = items[item] ?? State()
            var clock = state.clocks[playlist] ?? HLSSegmentClock()
            for (uri, start) in clock.update(media) {
                if let url = URIReference.resolve(uri, against: base) { state.starts[url] = start }
            }
            state.clocks[playlist] = clock
            if state.starts.count > capacity { state.starts.removeAll(keepingCapacity: true) }  // rebuilt by the next refresh
            items[item] = state
        }
    }

    /// Where the segment at `url` starts on its playlist's timeline, if a served playlist listed it.
    func start(of url: URL, item: GatewayItemID) -> Double? {
        items.withLock { $0[item]?.starts[url] }
    }

    func forget(_ item: GatewayItemID) {
        _ = items.withLock { $0.removeValue(forKey: item) }
    }
}
