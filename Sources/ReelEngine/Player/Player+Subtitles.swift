import CGStreamer
import CReelFrame
import Foundation
import ReelCore
import ReelGLib

/// The video filter each pipeline gets (`VideoFilter`): its aspect part for windows, and the
/// overlay that draws subtitle files unless turned off. What goes on it is the features' (the
/// subtitles' look, the file shown: `SubtitleLook`, `Tracks`); the text it draws is told here.
extension Player {
    func installVideoFilter() {
        videoFilter = VideoFilter(aspectModes: configuration.aspectModes, subtitleOverlay: configuration.subtitleOverlay,
                                  topOverlay: features.first(Tracks.self)?.secondaryWanted ?? false, fitsToWindow: videoSinkCannotScale)
        if let videoFilter { reel_set_object(pipeline.element, "video-filter", videoFilter.bin) }
        if let area = output.area { videoFilter?.fit(width: area.width, height: area.height) }
        let bridge = self.bridge
        videoFilter?.subtitles?.onText = { text, at in
            MainQueue.shared.async { bridge?.player?.emit(.subtitle(text: text, position: at)) }
        }
        features.each("pipelineBuilt") { $0.pipelineBuilt(host: self) }
    }

    /// The video sink draws with ximagesink and nothing in it scales: the picture is fitted to
    /// the window in the video filter (`VideoFilter.fit`), before playsink converts it.
    private var videoSinkCannotScale: Bool {
        guard let sink = pipeline.sink("video-sink") else { return false }
        defer { gst_object_unref(sink) }
        let scalers: [String] = ["videoscale", "videoconvertscale"]
        return reel_element_has_factory(sink, "ximagesink") != 0 && !scalers.contains { reel_element_has_factory(sink, $0) != 0 }
    }

    /// The overlay that draws subtitle files, in this pipeline's video filter.
    var subtitleOverlay: SubtitleOverlay? { videoFilter?.subtitles }
    /// The secondary subtitles' overlay (at the top), when this pipeline has one.
    var secondarySubtitleOverlay: SubtitleOverlay? { videoFilter?.secondarySubtitles }

    /// The text of the subtitles Reel draws now (files; nil when none is on screen).
    public var subtitleText: String? { videoFilter?.subtitles?.currentText }
}
