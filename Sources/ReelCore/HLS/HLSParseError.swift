/// Why a playlist could not be parsed. `line` is 1-based.
public enum HLSParseError: Error, Sendable, Equatable, CustomStringConvertible {
    case notAPlaylist
    case invalidValue(tag: String, line: Int)
    case missingURI(tag: String, line: Int)
    case missingTargetDuration

    public var description: String {
        switch self {
        case .notAPlaylist: "The text is not an HLS playlist (no #EXTM3U header)."
        case .invalidValue(let tag, let line): "Line \(line): \(tag) has an invalid value."
        case .missingURI(let tag, let line): "Line \(line): \(tag) is not followed by a URI."
        case .missingTargetDuration: "The media playlist has no #EXT-X-TARGETDURATION."
        }
    }
}
