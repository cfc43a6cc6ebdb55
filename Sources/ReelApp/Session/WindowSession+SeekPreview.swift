import Foundation
import ReelCore
import ReelEngine

extension WindowSession {
    /// Seek-bar previews (issue 48): hovering the bar asks `SeekPreviewer` for the frame at that
    /// time of the item playing, by the URI the player plays (a protected stream's through the
    /// gateway); the window shows it above the bar with the time hovered. None for live items.
    /// The previewer is the hover handler's own (it lives as long as the window's handler); an
    /// item change closes its pipeline and drops its frames.
    func attachSeekPreviews() {
        let previewer = SeekPreviewer()
        controller.addObserver { event, _ in
            if case .itemChanged = event { previewer.forget() }
        }
        window.onSeekHover = { [weak self] time in
            guard let self, let time, let item = self.player.currentItem, !self.player.mediaInfo.isLive else { return }
            // An HLS master's I-frame playlist when it lists one (a keyframe an entry: the least
            // to fetch), else what plays (an adaptive stream at its lowest rendition).
            let uri = self.core.router.iFramePlaylist(for: item.id)?.absoluteString ?? item.playedURI
            previewer.request(uri: uri, time: time) { [weak self] image in
                guard let self, let image, self.player.currentItem?.id == item.id else { return }
                self.window.showSeekPreview(rgb: image.rgb, width: image.width, height: image.height, stride: image.stride, time: time)
            }
        }
    }
}
