import CGStreamer
import CReelFrame
import Foundation
import ReelCore
import ReelGLib
import Synchronization

/// A frame for the seek bar's hover: RGB, `width`×`height`, rows of `stride` bytes, at `time`.
public struct PreviewImage: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var stride: Int
    public var rgb: Data
    /// The frame's time (the keyframe at or before the time asked for).
    public var time: Double

    /// The colour at (x, y), for tests.
    public func pixel(x: Int, y: Int) -> (r: Int, g: Int, b: Int) {
        let i = y * stride + x * 3
        return (Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
    }
}

/// Seek-bar previews (issue 48, as Haruna's and mpv's thumbfast): the frame at a time of the item
/// playing, decoded by a second, small pipeline of its own (`reel_seek_preview`: its URI as the
/// player plays it, so a protected stream goes through the gateway with its credentials, an
/// adaptive one at its lowest rendition) from the keyframe at or before the time, off the main
/// thread (one utility-priority queue), each item's frames kept within `memoryBound` bytes (the
/// oldest go first). Only the newest hover is decoded: one asked for while another decodes
/// replaces any still waiting. Live items get none (nothing beyond the window).
public final class SeekPreviewer: Sendable {
    /// Frames are this wide (square pixels).
    public let width: Int
    /// The most bytes of frames kept, over all items.
    public let memoryBound: Int
    /// Times within one bucket share a frame (seconds).
    public let bucket: Double
    private let queue = DispatchQueue(label: "reel.seek-preview", qos: .utility)
    private let state = Mutex(State())

    private struct State {
        /// The pipeline of the item previewed last (its URI), used on `queue` only.
        var handle: Handle?
        var cache: [Key: PreviewImage] = [:]
        var order: [Key] = []
        var bytes = 0
        /// The newest request; one that is no longer newest when its turn comes is dropped.
        var newest = 0
        /// Frames decoded (not served from the cache), for tests.
        var decoded = 0
        /// URIs whose pipeline could not be made: not tried again.
        var failed: Set<String> = []
    }

    /// A `ReelSeekPreview`, touched on `queue` only.
    private struct Handle: @unchecked Sendable {
        var uri: String
        var preview: OpaquePointer
    }

    private struct Key: Hashable {
        var uri: String
        var bucket: Int
    }

    public init(width: Int = 160, memoryBound: Int = 16 << 20, bucket: Double = 2) {
        self.width = width
        self.memoryBound = memoryBound
        self.bucket = bucket
    }

    deinit {
        let handle = state.withLock { $0.handle }
        if let handle { reel_seek_preview_free(handle.preview) }
    }

    /// How many frames were decoded so far (cache hits are not).
    public var decodedCount: Int { state.withLock { $0.decoded } }
    /// The bytes of frames kept.
    public var cachedBytes: Int { state.withLock { $0.bytes } }

    /// The frame of `uri` at `time` (seconds), given to `completion` on the main queue (nil: none
    /// could be had, or a newer request took its place).
    public func request(uri: String, time: Double, completion: @escaping @Sendable @MainActor (PreviewImage?) -> Void) {
        let key = Key(uri: uri, bucket: Int((max(0, time) / bucket).rounded(.down)))
        let (cached, ticket) = state.withLock { s -> (PreviewImage?, Int) in
            s.newest += 1
            return (s.cache[key], s.newest)
        }
        if let cached { return MainQueue.shared.async { completion(cached) } }
        queue.async { [self] in
            let image = state.withLock { $0.newest == ticket } ? decode(key, time: time) : nil
            MainQueue.shared.async { completion(image) }
        }
    }

    /// Synchronously, for tests and benchmarks: the frame of `uri` at `time`.
    public func frame(uri: String, time: Double) -> PreviewImage? {
        queue.sync { decode(Key(uri: uri, bucket: Int((max(0, time) / bucket).rounded(.down))), time: time) }
    }

    /// Forgets every item's frames and closes the pipeline (the queue changed to other items).
    public func forget() {
        queue.async { [self] in
            let handle = state.withLock { s -> Handle? in
                defer { s.handle = nil; s.cache = [:]; s.order = []; s.bytes = 0 }
                return s.handle
            }
            if let handle { reel_seek_preview_free(handle.preview) }
        }
    }

    /// On `queue`.
    private func decode(_ key: Key, time: Double) -> PreviewImage? {
        if let hit = state.withLock({ $0.cache[key] }) { return hit }
        guard let preview = pipeline(for: key.uri) else { return nil }
        var w: Int32 = 0, h: Int32 = 0, stride: Int32 = 0
        var pts: UInt64 = 0
        let at = UInt64(max(0, time) * 1e9)
        guard let bytes = reel_seek_preview_frame(preview, at, 5_000_000_000, &w, &h, &stride, &pts) else { return nil }
        defer { reel_frame_free(bytes) }
        let image = PreviewImage(width: Int(w), height: Int(h), stride: Int(stride), rgb: Data(bytes: bytes, count: Int(stride) * Int(h)),
                                 time: Double(pts) / 1e9)
        state.withLock { s in
            s.decoded += 1
            s.cache[key] = image
            s.order.append(key)
            s.bytes += image.rgb.count
            while s.bytes > memoryBound, !s.order.isEmpty {
                let old = s.order.removeFirst()
                s.bytes -= s.cache.removeValue(forKey: old)?.rgb.count ?? 0
            }
        }
        Log.debug(.engine, .debug, "seek preview at \(String(format: "%.1f", time)) s: the frame at \(String(format: "%.2f", image.time)) s")
        return image
    }

    /// On `queue`: the item's pipeline, made when another item is asked for.
    private func pipeline(for uri: String) -> OpaquePointer? {
        let (current, failed) = state.withLock { ($0.handle, $0.failed.contains(uri)) }
        if let current, current.uri == uri { return current.preview }
        if failed { return nil }
        if let current { reel_seek_preview_free(current.preview) }
        GStreamerRuntime.ensureInitialised()
        var error: UnsafeMutablePointer<CChar>?
        let made = reel_seek_preview_new(uri, Int32(width), 10_000_000_000, &error)
        if let error {
            Log.debug(.engine, .info, "seek previews of \(Redactor.redactURL(uri)): none (\(String(cString: error)))")
            reel_frame_free(error)
        }
        state.withLock { s in
            s.handle = made.map { Handle(uri: uri, preview: $0) }
            if made == nil { s.failed.insert(uri) }
        }
        return made
    }
}
