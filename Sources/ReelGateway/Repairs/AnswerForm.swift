import Foundation
import NIOCore
import ReelCore

/// What an upstream answer is, for the repairs: an HLS playlist, a DASH MPD (both read whole and
/// repaired as text) or media (streamed). Told by its Content-Type, its URL's extension and what
/// the listing playlist called it; else by its first bytes (`sniffed`).
enum AnswerForm: Equatable {
    case playlist, manifest, media

    /// The form its head tells; nil when only its bytes can.
    static func of(contentType: String, pathExtension: String, kind: HLSURIKind?) -> AnswerForm? {
        let ext = pathExtension.lowercased()
        if contentType.contains("dash+xml") || ext == "mpd" { return .manifest }
        if contentType.contains("mpegurl") || kind?.isPlaylist == true || ext == "m3u8" || ext == "m3u" { return .playlist }
        return nil
    }

    /// The form its first bytes tell (`#EXTM3U`, an `<MPD`), else media.
    static func sniffed(_ first: ByteBuffer?) -> AnswerForm {
        guard let first else { return .media }
        if HLSPlaylist.looksLikePlaylist(bytes: first.readableBytesView) { return .playlist }
        if DASHManifestRewriter.looksLikeMPD(bytes: first.readableBytesView) { return .manifest }
        return .media
    }
}

/// A live segment that failed is answered with an empty 200, a gap hlsdemux2 1.22 survives (a
/// 4xx/5xx there aborts the process: `LiveSegmentGap`); `reel check --watch` asks for the truth
/// (`LiveSegmentGap.passErrorsHeader`).
enum LiveSegmentGaps {
    static func answersAsGap(status: Int, kind: HLSURIKind?, _ context: RepairContext) -> Bool {
        context.request.method == .GET && context.request.headers[LiveSegmentGap.passErrorsHeader].isEmpty
            && LiveSegmentGap.answersAsGap(status: status, kind: kind, live: context.item.live?.snapshot.map { !$0.hasEndList } == true)
    }
}
