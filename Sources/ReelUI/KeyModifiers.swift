/// The modifier keys that matter to shortcuts (a subset of GdkModifierType, as plain values).
public struct KeyModifiers: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let shift = KeyModifiers(rawValue: 1 << 0)    // GDK_SHIFT_MASK
    public static let control = KeyModifiers(rawValue: 1 << 2)  // GDK_CONTROL_MASK
    public static let alt = KeyModifiers(rawValue: 1 << 3)      // GDK_MOD1_MASK

    /// Keeps the bits of a GdkModifierType that are shift, control or alt.
    public init(gdkState: UInt32) { self.init(rawValue: gdkState & (1 | 4 | 8)) }
}
