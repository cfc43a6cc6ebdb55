import Foundation
import ReelCore

/// How a session is controlled and observed from outside: the control socket, MPRIS, and
/// `--screenshot-at` captures.
struct RemoteOptions: Sendable {
    /// nil: no socket; "" or "auto": the default path.
    var ipcPath: String?
    var mpris = false
    /// Whether `--mpris` was given (not just the windowed default): only then does MPRIS keep a
    /// session without a window alive after its last item.
    var mprisExplicit = false
    var screenshotDirectory: String?
    /// `--screenshot-at`: capture every item's frame at these positions while playing.
    var screenshotAt: [CapturePosition] = []

    /// A socket or an explicit `--mpris` keeps a session without a window alive after the last
    /// item (until `quit`).
    var keepsSessionAlive: Bool { ipcPath != nil || (mpris && mprisExplicit) }
}
