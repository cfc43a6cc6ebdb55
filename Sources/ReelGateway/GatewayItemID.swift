/// A registered item's id, unique within one gateway.
public struct GatewayItemID: Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public var description: String { "item-\(rawValue)" }
}
