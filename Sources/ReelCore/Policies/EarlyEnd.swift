import Foundation

/// An item that ends long before its duration. A file cut short, or damaged past its index,
/// plays what it has and then ends cleanly: GStreamer posts EOS and no error. The player reports
/// it as a warning (the item still counts as played) and `reel check` as `corrupt`, with this one
/// rule and this one message.
public enum EarlyEnd {
    /// Early means more than a second short, or 5 % of the duration when that is more (an
    /// estimated duration, a VBR MP3's say, can be a little off).
    public static func isEarly(reached: Double, duration: Double) -> Bool {
        duration > 0 && reached >= 0 && duration - reached > max(1.0, duration * 0.05)
    }

    public static func error(reached: Double, duration: Double, uri: String?) -> PlaybackError {
        PlaybackError(kind: .corrupt,
                      message: String(format: "It stops at %.2f s of its %.2f s: the file is damaged or cut short.", reached, duration),
                      uri: uri)
    }
}
