import Foundation
import ReelCore

extension PlayerWindow {
    /// Shows a frame above the seek bar, where the pointer hovers it (`onSeekHover` asked for
    /// it), with the time hovered; nothing when the pointer has left.
    public func showSeekPreview(rgb: Data, width: Int, height: Int, stride: Int, time: Double) {
        controls.seekRow.preview.show(rgb: rgb, width: width, height: height, stride: stride, time: TimeFormat.clock(time))
    }

    /// The preview above the seek bar is shown (tests).
    public var isSeekPreviewShown: Bool { controls.seekRow.preview.isShown }
    /// The preview's frame size (tests).
    public var seekPreviewSize: (Int, Int)? { controls.seekRow.preview.shownSize }
}
