import CReelFrame
import Foundation
import ReelCore
import Synchronization

/// The cues of a media file's own subtitle stream, as GStreamer decodes them for playbin3 to draw
/// (`reel inspect --track N`): a pipeline of its own reads the stream to its end
/// (`reel_text_track_read`: video and audio are not decoded), each text buffer a cue from its
/// PTS for its duration (to the next cue's start when it has none).
public enum EmbeddedTextTrack {
    public struct Read: Sendable {
        public var cues: [SubtitleCue]
        /// How many text streams the media has.
        public var streams: Int
    }

    /// The `index`-th (0-based) text stream's cues; `streams` says how many there are (the cues
    /// are empty when `index` is past them).
    public static func read(uri: String, index: Int, timeout: Double = 60) -> Result<Read, PlaybackError> {
        GStreamerRuntime.ensureInitialised()
        let collector = Collector()
        var message: UnsafeMutablePointer<CChar>?
        let box = Unmanaged.passRetained(collector)
        defer { box.release() }
        let streams = reel_text_track_read(uri, Int32(index), UInt64(max(1, timeout) * 1e9), { data, pts, duration, text, size, markup in
            guard let data else { return }
            let bytes = text.map { UnsafeRawBufferPointer(start: $0, count: size) }.map { Array($0) } ?? []
            Unmanaged<Collector>.fromOpaque(data).takeUnretainedValue().add(pts: pts, duration: duration, bytes: bytes, markup: markup != 0)
        }, box.toOpaque(), &message)
        let why = message.map { String(cString: $0) }
        reel_text_track_free(message)
        switch streams {
        case -2: return .failure(PlaybackError(kind: .timeout, message: "Reading the subtitle stream took longer than \(Int(timeout)) s."))
        case ..<0: return .failure(PlaybackError(kind: .unsupportedFormat, message: "The media's subtitle streams could not be read (\(why ?? "no reason given"))."))
        default: return .success(Read(cues: collector.cues(), streams: Int(streams)))
        }
    }

    /// The buffers as they come (streaming thread), cues when asked.
    final class Collector: Sendable {
        private let buffers = Mutex<[(pts: UInt64, duration: UInt64, text: String, markup: Bool)]>([])

        func add(pts: UInt64, duration: UInt64, bytes: [UInt8], markup: Bool) {
            let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            buffers.withLock { $0.append((pts, duration, text, markup)) }
        }

        func cues() -> [SubtitleCue] {
            let all = buffers.withLock { $0 }.filter { $0.pts != UInt64.max }
            var cues: [SubtitleCue] = []
            for (n, b) in all.enumerated() {
                let start = Double(b.pts) / 1e9
                let end = b.duration != UInt64.max ? start + Double(b.duration) / 1e9
                    : (n + 1 < all.count ? Double(all[n + 1].pts) / 1e9 : start + 5)
                // Pango markup's tags and entities read as styled runs; plain text as it is.
                let runs = b.markup ? SubtitleRun.runs(pangoMarkup: b.text) : [SubtitleRun(b.text)]
                let cue = SubtitleCue(start: start, end: end, runs: runs.filter { !$0.text.isEmpty })
                if !cue.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { cues.append(cue) }
            }
            return cues
        }
    }
}
