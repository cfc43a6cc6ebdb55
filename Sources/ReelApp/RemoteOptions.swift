import ReelCore

/// How a session is controlled and observed from outside: the control socket, MPRIS, and
/// `--screenshot-at` captures.
struct RemoteOptions: Sendable {
    /// nil: no socket; "" or "auto": the default path.
    var ipcPath: String?
    var mpris = false
    var screenshotDirectory: String?
    /// `--screenshot-at`: capture every item's frame at these positions while playing.
    var screenshotAt: [CapturePosition] = []

    /// A socket or MPRIS keeps the session alive after the last item (until `quit`).
    var keepsSessionAlive: Bool { ipcPath != nil || mpris }
}
