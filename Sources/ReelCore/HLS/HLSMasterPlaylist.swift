/// A master (multivariant) playlist.
public struct HLSMasterPlaylist: Sendable, Equatable, Codable {
    public var version: Int?
    public var variants: [HLSVariant]
    public var renditions: [HLSRendition]
    public var iFramePlaylists: [HLSVariant]
    public var sessionKeys: [HLSKey]
    public var independentSegments: Bool

    public init(version: Int? = nil, variants: [HLSVariant] = [], renditions: [HLSRendition] = [], iFramePlaylists: [HLSVariant] = [],
                sessionKeys: [HLSKey] = [], independentSegments: Bool = false) {
        self.version = version
        self.variants = variants
        self.renditions = renditions
        self.iFramePlaylists = iFramePlaylists
        self.sessionKeys = sessionKeys
        self.independentSegments = independentSegments
    }

    /// Every URI the playlist refers to (variants, renditions, I-frame playlists), in order, as written.
    public var allURIs: [String] {
        variants.map(\.uri) + renditions.compactMap(\.uri) + iFramePlaylists.map(\.uri)
    }
}
