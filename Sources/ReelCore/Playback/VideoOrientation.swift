import Foundation

/// How a picture is turned for display, from GStreamer's `image-orientation` tag (qtdemux and
/// matroskademux read it from the file's display matrix: a phone's portrait video is stored
/// landscape with "rotate-90" or "rotate-270"). The engine's video filter turns the picture
/// (`videoflip`, set per stream from this tag: `CReelFrame/reel_video_flip.c`; as mpv, VLC and Totem do); this says what that does to
/// its size, for frame captures and the aspect modes.
public struct VideoOrientation: Equatable, Sendable {
    /// Clockwise degrees: 0, 90, 180 or 270.
    public var degrees: Int
    /// Mirrored (before the rotation), as the `flip-rotate-*` values.
    public var flipped: Bool

    public static let upright = VideoOrientation(degrees: 0, flipped: false)

    public init(degrees: Int, flipped: Bool) {
        self.degrees = degrees
        self.flipped = flipped
    }

    /// The tag's value (`rotate-90`, `flip-rotate-270`, …); nil for anything else.
    public init?(tag: String) {
        let value = tag.trimmingCharacters(in: .whitespaces).lowercased()
        let flipped = value.hasPrefix("flip-")
        let rest = flipped ? value.dropFirst("flip-".count) : Substring(value)
        guard rest.hasPrefix("rotate-"), let degrees = Int(rest.dropFirst("rotate-".count)), [0, 90, 180, 270].contains(degrees) else { return nil }
        self.init(degrees: degrees, flipped: flipped)
    }

    /// A quarter turn: the displayed picture's width is the stored one's height.
    public var swapsAxes: Bool { degrees == 90 || degrees == 270 }

    /// A stored `width`×`height` picture's size on screen.
    public func displayed(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsAxes ? (height, width) : (width, height)
    }
}
