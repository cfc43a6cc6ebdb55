import CGStreamer
import ReelCore

/// The picture's brightness, contrast, saturation, gamma and hue (mpv's video equalizer, keys 1–8;
/// the socket's `brightness` … `hue`): kept across items and pipelines, set on the video filter's
/// `videobalance` and `gamma` (both pass frames through untouched at 0). A paused frame is drawn
/// anew. Said as a `picture` event when a value changes.
@MainActor
final class PictureControls: PlayerFeature {
    private(set) var adjustments = PictureAdjustments()

    func readout(into snapshot: inout PlaybackSnapshot, host: FeatureHost) { snapshot.picture = adjustments }
    func pipelineBuilt(host: FeatureHost) { apply(host: host) }

    func properties(host: FeatureHost) -> [Property] {
        let r = Double(PictureAdjustments.range.lowerBound)...Double(PictureAdjustments.range.upperBound)
        return PictureAdjustments.Control.allCases.map { control in
            .number(control.rawValue, NumberSpec(range: r, whole: true, step: Double(PictureAdjustments.step)), "The picture's \(control.rawValue), -100 to 100.",
                    get: { Double($0.picture[control]) }) { self.set(control, to: Int($0), host: host) }
        }
    }

    func set(_ control: PictureAdjustments.Control, to value: Int, host: FeatureHost) {
        var next = adjustments
        next[control] = value
        guard next != adjustments else { return }
        adjustments = next
        Log.debug(.engine, .info, "picture: \(control.rawValue) \(next[control])")
        apply(host: host)
        host.redrawPausedFrame()
        host.emit(.picture(control: control.rawValue, value: next[control]))
    }

    private func apply(host: FeatureHost) {
        let e = adjustments.element
        if let balance = host.videoFilterElement("reel-balance") {
            reel_set_double(balance, "brightness", e.brightness)
            reel_set_double(balance, "contrast", e.contrast)
            reel_set_double(balance, "saturation", e.saturation)
            reel_set_double(balance, "hue", e.hue)
            gst_object_unref(balance)
        }
        if let gamma = host.videoFilterElement("reel-gamma") {
            reel_set_double(gamma, "gamma", e.gamma)
            gst_object_unref(gamma)
        }
    }
}

extension Player {
    /// The picture's adjustments (mpv's `brightness`, `contrast`, `saturation`, `gamma`, `hue`).
    public var pictureAdjustments: PictureAdjustments { features.first(PictureControls.self)?.adjustments ?? PictureAdjustments() }

    /// Sets one adjustment (clamped to -100…100).
    public func setPicture(_ control: PictureAdjustments.Control, to value: Int) {
        features.first(PictureControls.self)?.set(control, to: value, host: self)
    }
}
