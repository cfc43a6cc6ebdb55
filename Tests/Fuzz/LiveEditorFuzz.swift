#if REEL_HAVE_HLS
import Foundation
#if canImport(ReelCore)
@testable import ReelCore
#endif

/// The live playlist editor (`LivePlaylistEditor`, ReelCore), which the gateway runs on every
/// HLS playlist before the engine sees it. The first byte picks the programme (mode, start and
/// end around the playlist's dates, an offset, steering); the rest is the playlist.
/// Properties: no crash or hang; a media playlist stays a media playlist; its segments (when any
/// is left) are a contiguous run of the input's, in order; the snapshot's window holds at least
/// what was served. And the window cap (`LiveWindowCap`) on the same playlist.
enum LiveEditorFuzz {
    static let t0 = Date(timeIntervalSince1970: 1_795_550_400)

    static func run(_ bytes: [UInt8]) {
        guard let selector = bytes.first else { return }
        let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
        let modes: [LiveMode] = [.live, .restart, .catchup]
        let mode = modes[Int(selector % 3)]
        let start = t0.addingTimeInterval(Double(Int(selector >> 2) % 16) * 2 - 4)
        let program: LiveProgram? = selector & 0x80 != 0 ? nil
            : LiveProgram(mode: mode, start: start, end: start.addingTimeInterval(Double(selector % 7) * 3 + 1),
                          startOffset: selector & 0x40 != 0 ? Double(selector % 5) : nil)
        let editor = LivePlaylistEditor(program: program, steersStart: selector & 0x20 != 0)
        let output = editor.edit(text, now: t0.addingTimeInterval(20))
        guard case .media(let before)? = try? HLSPlaylist.parse(text), !before.segments.isEmpty else { return }
        guard case .media(let after)? = try? HLSPlaylist.parse(output.text) else {
            fuzzFailure("a media playlist no longer parses as one: \(text.debugDescription) -> \(output.text.debugDescription)")
        }
        let uris = before.segments.map(\.uri), kept = after.segments.map(\.uri)
        // Nothing served is right when the programme is not in the playlist (a restart or catchup
        // whose start is after its last segment: found by this fuzzer with dates going backwards).
        if kept.isEmpty { return }
        guard let first = uris.firstIndex(of: kept[0]),
              first + kept.count <= uris.count, Array(uris[first..<(first + kept.count)]) == kept || Set(uris).count != uris.count else {
            fuzzFailure("the segments served are not a run of the playlist's: \(uris) -> \(kept)")
        }
        if let snapshot = output.snapshot, snapshot.durations.count < kept.count {
            fuzzFailure("the snapshot (\(snapshot.durations.count)) holds less than was served (\(kept.count))")
        }
        windowCap(text, before: before, limit: Int(selector % 4) + 1)
    }

    /// `LiveWindowCap` with a small cap: a live playlist over it keeps its newest `limit`
    /// segments, in order, with the sequence number moved by what was cut; one within it (or
    /// closed) is unchanged.
    static func windowCap(_ text: String, before: HLSMediaPlaylist, limit: Int) {
        let capped = LiveWindowCap.cap(text, maximumSegments: limit)
        if capped.dropped == 0 {
            if capped.text != text { fuzzFailure("nothing was cut, yet the text changed") }
            return
        }
        if before.hasEndList { fuzzFailure("a closed playlist was cut") }
        guard case .media(let after)? = try? HLSPlaylist.parse(capped.text) else {
            fuzzFailure("a capped playlist no longer parses: \(text.debugDescription) -> \(capped.text.debugDescription)")
        }
        // On a playlist the parser finds no fault in, exactly the newest segments.
        guard let report = try? HLSPlaylist.parseReporting(text), report.problems.isEmpty else { return }
        if after.segments.map(\.uri) != before.segments.suffix(limit).map(\.uri) {
            fuzzFailure("the capped playlist's segments are not the newest \(limit): \(capped.text.debugDescription)")
        }
        if after.mediaSequence != before.mediaSequence + capped.dropped {
            fuzzFailure("media sequence \(after.mediaSequence), expected \(before.mediaSequence) + \(capped.dropped)")
        }
    }
}
#endif
