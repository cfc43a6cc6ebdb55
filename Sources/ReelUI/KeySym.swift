/// X11/GDK key symbols used by the shortcuts (gdkkeysyms.h values; Latin-1 keys are their code).
public enum KeySym {
    public static let space: UInt32 = 0x020
    public static let numbersign: UInt32 = 0x023
    public static let comma: UInt32 = 0x02c
    public static let period: UInt32 = 0x02e
    public static let zero: UInt32 = 0x030
    public static let nine: UInt32 = 0x039
    public static let less: UInt32 = 0x03c
    public static let greater: UInt32 = 0x03e
    public static let question: UInt32 = 0x03f
    public static let bracketleft: UInt32 = 0x05b
    public static let bracketright: UInt32 = 0x05d
    public static let backSpace: UInt32 = 0xff08
    public static let escape: UInt32 = 0xff1b
    public static let left: UInt32 = 0xff51
    public static let up: UInt32 = 0xff52
    public static let right: UInt32 = 0xff53
    public static let down: UInt32 = 0xff54
    public static let delete: UInt32 = 0xffff
    public static let end: UInt32 = 0xff57
    public static let plus: UInt32 = 0x02b
    public static let minus: UInt32 = 0x02d
    public static let equal: UInt32 = 0x03d
    public static let kpAdd: UInt32 = 0xffab
    public static let kpSubtract: UInt32 = 0xffad
    public static let pageUp: UInt32 = 0xff55
    public static let pageDown: UInt32 = 0xff56
    public static let f9: UInt32 = 0xffc6
    public static let f11: UInt32 = 0xffc8
    public static let kpLeft: UInt32 = 0xff96
    public static let kpUp: UInt32 = 0xff97
    public static let kpRight: UInt32 = 0xff98
    public static let kpDown: UInt32 = 0xff99

    /// The symbol of a Latin letter or digit key ("p" → 0x70).
    public static func char(_ c: Character) -> UInt32 { c.unicodeScalars.first!.value }
}
