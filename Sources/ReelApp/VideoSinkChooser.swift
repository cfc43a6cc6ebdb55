import Foundation
import ReelEngine

/// Picks the video sink for the window by what works on this display, cheapest first (see
/// docs/ARCHITECTURE.md, "Video output", for the measurements behind the order). Each candidate
/// draws into the window's video area through GstVideoOverlay and keeps the aspect ratio.
enum VideoSinkChooser {
    /// Candidates in order of preference: element to probe, description to use.
    static let candidates: [(probe: String, description: String)] = [
        // Hardware scaling through XVideo: cheapest; absent on Xvfb and many modern drivers.
        ("xvimagesink", "xvimagesink handle-events=false force-aspect-ratio=true"),
        // Plain X11 images (XShm): works on every X server. playbin's own videoscale scales the
        // frame to the window size the sink reports (1.25 s CPU for 10 s of 1080p at 960x540).
        ("ximagesink", "ximagesink handle-events=false force-aspect-ratio=true"),
        // GL: cheap on a GPU, but on llvmpipe (no GPU, Xvfb) 5× the CPU of ximagesink.
        ("glimagesink", "glimagesink handle-events=false force-aspect-ratio=true"),
    ]

    /// On Wayland: waylandsink, given the toplevel's surface and the video area's place in it
    /// (`VideoOutput`). The X11 sinks would reach Xwayland and open a window of their own there.
    static let waylandCandidates: [(probe: String, description: String)] = [
        ("waylandsink", "waylandsink"),
    ]

    /// What plays when no sink can draw into the window: the sound goes on, the picture is
    /// dropped (never a window of a sink's own), and the window says so.
    static let noVideo = "fakesink sync=true"
    static let noVideoMessage = "No video output can draw into this window (on Wayland Reel needs waylandsink, from GStreamer's plugins-bad): playing the sound only."

    /// The sink description to use; $REEL_VIDEO_SINK overrides.
    static func choose(wayland: Bool = false) -> String {
        if let forced = ProcessInfo.processInfo.environment["REEL_VIDEO_SINK"], !forced.isEmpty { return forced }
        for c in wayland ? waylandCandidates : candidates where works(c.probe) { return c.description }
        return wayland ? noVideo : "autovideosink"
    }

    /// Whether the element exists and can open the display (goes to READY).
    static func works(_ factory: String) -> Bool { ElementProbe.reachesReady(factory) }
}
