/// An alternative rendition of a master playlist (`#EXT-X-MEDIA`).
public struct HLSRendition: Sendable, Equatable, Hashable, Codable {
    /// `AUDIO`, `VIDEO`, `SUBTITLES` or `CLOSED-CAPTIONS`.
    public var type: String
    public var groupID: String
    public var name: String
    public var language: String?
    /// Nil for renditions carried in the variant itself (and always for closed captions).
    public var uri: String?
    public var isDefault: Bool
    public var autoselect: Bool
    public var forced: Bool
    public var channels: String?
    public var instreamID: String?

    public init(type: String, groupID: String, name: String, language: String? = nil, uri: String? = nil, isDefault: Bool = false,
                autoselect: Bool = false, forced: Bool = false, channels: String? = nil, instreamID: String? = nil) {
        self.type = type
        self.groupID = groupID
        self.name = name
        self.language = language
        self.uri = uri
        self.isDefault = isDefault
        self.autoselect = autoselect
        self.forced = forced
        self.channels = channels
        self.instreamID = instreamID
    }
}
