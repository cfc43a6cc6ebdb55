import ReelCore
import Foundation

/// Which sink draws into the window, per display backend, cheapest first (docs/ARCHITECTURE.md,
/// "Video output", has the measurements behind the order). Every candidate draws into the
/// window's video area through GstVideoOverlay and keeps the aspect ratio; none opens a window of
/// its own: when none works, the sound plays and the window says why there is no picture.
extension VideoOutput {
    public enum Backend: Sendable, Equatable {
        case x11, wayland
    }

    public struct SinkChoice: Sendable, Equatable {
        /// The sink's description (gst-launch syntax).
        public let description: String
        /// Whether it draws into the window (false: the picture is dropped).
        public let drawsInWindow: Bool
        /// What the window says when it does not.
        public let message: String?
    }

    /// X11: hardware scaling through XVideo, cheapest but absent on Xvfb and many modern drivers;
    /// plain X11 images (XShm), on every X server (playbin's videoscale scales to the size the
    /// sink reports: 1.25 s CPU for 10 s of 1080p at 960x540); GL, cheap on a GPU but 5× the CPU
    /// of ximagesink on llvmpipe.
    static let x11Candidates: [(probe: String, description: String)] = [
        ("xvimagesink", "xvimagesink handle-events=false force-aspect-ratio=true"),
        ("ximagesink", "ximagesink handle-events=false force-aspect-ratio=true"),
        ("glimagesink", "glimagesink handle-events=false force-aspect-ratio=true"),
    ]

    /// Wayland: waylandsink on the toplevel's surface at the video area's place (`attach`). The
    /// X11 sinks would reach Xwayland and open a window of their own there, glimagesink one of
    /// its own on Wayland.
    static let waylandCandidates: [(probe: String, description: String)] = [
        ("waylandsink", "waylandsink"),
    ]

    public static var noVideoMessage: String {
        tr("No video output can draw into this window (on Wayland Reel needs waylandsink, from GStreamer's plugins-bad): playing the sound only.")
    }

    /// The sink for `backend`: `forced` (--video-sink) or $REEL_VIDEO_SINK first, as given; else
    /// the first candidate that reaches READY here.
    public static func chooseSink(for backend: Backend, forced: String? = nil,
                                  environment: [String: String] = ProcessInfo.processInfo.environment) -> SinkChoice {
        if let forced = forced ?? environment["REEL_VIDEO_SINK"], !forced.isEmpty {
            return SinkChoice(description: forced, drawsInWindow: true, message: nil)
        }
        for c in backend == .wayland ? waylandCandidates : x11Candidates where ElementProbe.reachesReady(c.probe) {
            return SinkChoice(description: c.description, drawsInWindow: true, message: nil)
        }
        switch backend {
        case .wayland: return SinkChoice(description: "fakesink sync=true", drawsInWindow: false, message: noVideoMessage)
        case .x11: return SinkChoice(description: "autovideosink", drawsInWindow: true, message: nil)
        }
    }
}
