/// A WebVTT segment of an HLS subtitle rendition, made safe for GStreamer 1.22's subparse:
/// hlsdemux2 hands it the segments one after another as one text stream, and subparse ends a
/// cue only at a blank line — a segment whose last cue is not followed by one (common: files end
/// with a single newline) swallows the next segment's header into that cue, and the cue is
/// never shown (measured: with three one-cue segments, only the last cue was drawn). The gateway
/// ends every such segment with a blank line. Pure: table-tested.
public enum WebVTTSegment {
    /// Whether a response is a WebVTT file, by its Content-Type or its path's extension.
    public static func isWebVTT(pathExtension: String, contentType: String) -> Bool {
        let ext = pathExtension.lowercased()
        return ext == "vtt" || ext == "webvtt" || contentType.lowercased().contains("text/vtt")
    }

    /// The bytes with a blank line at the end, or nil when they already end with one or are
    /// not WebVTT (they must start with "WEBVTT", after an optional byte-order mark).
    public static func terminated(_ bytes: [UInt8]) -> [UInt8]? {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        guard body.starts(with: Array("WEBVTT".utf8)) else { return nil }
        // Line breaks among the trailing whitespace: "\n", "\r\n" or a lone "\r" each count one.
        var breaks = 0
        var i = bytes.count - 1
        while i >= 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) {
            if bytes[i] == 0x0A || (bytes[i] == 0x0D && (i + 1 == bytes.count || bytes[i + 1] != 0x0A)) { breaks += 1 }
            i -= 1
        }
        guard breaks < 2 else { return nil }
        return bytes + Array(repeating: 0x0A, count: 2 - breaks)
    }
}
