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

    /// The sink description to use; $REEL_VIDEO_SINK overrides.
    static func choose() -> String {
        if let forced = ProcessInfo.processInfo.environment["REEL_VIDEO_SINK"], !forced.isEmpty { return forced }
        for c in candidates where works(c.probe) { return c.description }
        return "autovideosink"
    }

    /// Whether the element exists and can open the display (goes to READY).
    static func works(_ factory: String) -> Bool { ElementProbe.reachesReady(factory) }
}
