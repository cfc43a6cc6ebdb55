import CGStreamer
import CReelFrame
import ReelCore

/// mpv's `video-rotate`, `video-zoom`, `video-pan-x`/`-y` (`VideoGeometry`): a `videoflip` and a
/// `videobox` of the video filter (both pass frames through untouched while neutral), kept across
/// items, set again at every preroll (the picture's size may change). A paused frame is drawn anew.
@MainActor
final class VideoTransform: PlayerFeature {
    private(set) var geometry = VideoGeometry()

    func readout(into snapshot: inout PlaybackSnapshot, host: FeatureHost) { snapshot.videoGeometry = geometry }
    func pipelineBuilt(host: FeatureHost) { apply(host: host) }

    func properties(host: FeatureHost) -> [Property] {
        func change(_ f: @escaping (inout VideoGeometry, Double) -> Void) -> (Double) -> Void {
            { value in
                var g = self.geometry
                f(&g, value)
                self.set(g, host: host)
            }
        }
        return [
            .number("video-rotate", NumberSpec(range: 0...359, whole: true, wraps: 360, step: 90, unit: "degrees"), "The picture turned by 0, 90, 180 or 270.",
                    get: { Double($0.videoGeometry.rotate) }) { value in
                guard VideoGeometry.rotations.contains(Int(value)) else { throw IPCError(.invalidArgument, "“video-rotate” takes 0, 90, 180 or 270.") }
                change { $0.rotate = Int($1) }(value)
            },
            .number("video-zoom", NumberSpec(range: VideoGeometry.zoomRange, step: 0.1), "The picture's zoom (log2: 1 is twice the size).",
                    get: { $0.videoGeometry.zoom }, set: change { $0.zoom = $1 }),
            .number("video-pan-x", NumberSpec(range: VideoGeometry.panRange, step: 0.1), "The picture moved sideways (in picture widths).",
                    get: { $0.videoGeometry.panX }, set: change { $0.panX = $1 }),
            .number("video-pan-y", NumberSpec(range: VideoGeometry.panRange, step: 0.1), "The picture moved up or down (in picture heights).",
                    get: { $0.videoGeometry.panY }, set: change { $0.panY = $1 }),
        ]
    }
    func prerolled(host: FeatureHost) { if !geometry.isNeutral { apply(host: host) } }

    func set(_ new: VideoGeometry, host: FeatureHost) {
        guard new != geometry else { return }
        geometry = new
        Log.debug(.engine, .info, "video: rotate \(new.rotate), zoom \(new.zoom), pan \(new.panX), \(new.panY)")
        apply(host: host)
        host.redrawPausedFrame()
        host.emit(.videoGeometry(rotate: new.rotate, zoom: new.zoom, panX: new.panX, panY: new.panY))
    }

    private func apply(host: FeatureHost) {
        if let flip = host.videoFilterElement("reel-rotate") {
            reel_set_int(flip, "method", Int32(geometry.flipMethod))
            gst_object_unref(flip)
        }
        if let box = host.videoFilterElement("reel-zoom") {
            // The picture as it enters the box: turned by the file's tag and the user's rotation.
            var size = host.orientedPictureSize ?? (0, 0)
            if geometry.rotate % 180 == 90 { size = (size.1, size.0) }
            let b = size.0 > 0 && size.1 > 0 ? geometry.box(width: size.0, height: size.1) : (0, 0, 0, 0)
            // Taken in the streaming thread before the next frame (`reel_video_box_request`).
            reel_video_box_request(box, Int32(clamping: b.0), Int32(clamping: b.1), Int32(clamping: b.2), Int32(clamping: b.3))
            gst_object_unref(box)
        }
    }
}

extension Player {
    /// The picture's rotation, zoom and pan (mpv's `video-rotate`, `video-zoom`, `video-pan-x/y`).
    public var videoGeometry: VideoGeometry { features.first(VideoTransform.self)?.geometry ?? VideoGeometry() }

    public func setVideoGeometry(_ geometry: VideoGeometry) { features.first(VideoTransform.self)?.set(geometry, host: self) }
}
