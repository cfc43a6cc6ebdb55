/// Where an event token goes: the `Authorization` header, an `Authorization` query parameter
/// on every request URI (for servers that want it), or both.
public enum TokenPlacement: String, Sendable, Codable, CaseIterable {
    case header, query, both

    public var usesHeader: Bool { self != .query }
    public var usesQuery: Bool { self != .header }

    /// The header and query parameter name.
    public static let parameterName = "Authorization"
}
