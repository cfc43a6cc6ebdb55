import Foundation
import ReelCore

/// A WebVTT segment of a subtitle rendition passed on ending with a blank line (`WebVTTSegment`:
/// GStreamer 1.22's subparse loses a cue that the next segment's header follows).
struct WebVTTSegmentEnds: MediaRepair {
    var name: String { "webvtt-end" }
    var wholeBody: Bool { true }
    func applies(to context: RepairContext, kind: HLSURIKind?, contentType: String) -> Bool {
        context.item.rewritesPlaylists && WebVTTSegment.isWebVTT(pathExtension: context.base.pathExtension.lowercased(), contentType: contentType)
    }
    func repair(_ bytes: [UInt8], _ context: RepairContext) -> [UInt8]? { WebVTTSegment.terminated(bytes) }
}

/// A bare packed-audio segment (no ID3 timestamp, which hlsdemux2 1.22 needs) gets the tag RFC
/// 8216 asks for first (`PackedAudioTimestamp`), at its start on its playlist's timeline
/// (`PackedAudioTimes` kept it). Whole answers only (the relay gives no ranged one).
struct PackedAudioTimestamps: MediaRepair {
    let clock: PackedAudioClock
    var name: String { "id3-timestamp" }
    var wholeBody: Bool { false }
    func applies(to context: RepairContext, kind: HLSURIKind?, contentType: String) -> Bool {
        kind == .segment && context.request.headers["Range"].isEmpty && clock.start(of: context.listed, item: context.id) != nil
    }
    func repair(_ bytes: [UInt8], _ context: RepairContext) -> [UInt8]? {
        guard let start = clock.start(of: context.listed, item: context.id), PackedAudioTimestamp.isBarePackedAudio(bytes[...]) else { return nil }
        return PackedAudioTimestamp.tag(start: start) + bytes
    }
}
