import Foundation
import ReelCore

/// Once a session's main loop has ended (`q`, the window closed, the socket's or MPRIS's quit,
/// SIGTERM, the end of the queue), the process is gone within `seconds` whatever GStreamer or
/// the gateway are doing (1 s: on a busy machine the 1.5 s it was left too little room before
/// the 2 s a user, and QuitDeadlineTests, allow): the orderly shutdown (resume positions first, then the pipeline to the
/// reaper, the gateway's connections) runs as before, and if it has not returned by then, stdout
/// and stderr are written (unbuffered, so nothing waits) and the process ends with the status it was going to have.
///
/// The socket's `quit` arms it when the request arrives (on the socket's thread), so a main
/// thread that is late to the quit is bounded too.
///
/// Seen (issue 45): `quit` during a refresh of a live playlist of 40,000 segments took over 10 s on
/// a busy machine (an adaptive demuxer's state change joining a download thread, the gateway's
/// shutdown waiting for the cooperative pool its rewrite occupied); a user pressing `q` waited
/// as long.
enum ExitDeadline {
    static let seconds = 1.0

    static func arm(status: Int32, after seconds: Double = ExitDeadline.seconds) {
        Log.debug(.app, .info, "exit: armed, status \(status), within \(seconds) s")
        // Made now: when the deadline passes, the thread takes no lock (the log's, GStreamer's,
        // stdio's) — an exit already under way may hold one (seen: neither deadline thread said a
        // word while exit() waited 3 s, and reel outlived its 2 s).
        let say = Log.isOn(.app, .info) ? Array("reel[app]: exit: the shutdown took longer than \(seconds) s; leaving now\n".utf8) : []
        let thread = Thread {
            Thread.sleep(forTimeInterval: seconds)
            if !say.isEmpty { say.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) } }
            // No flush: events and the log are written unbuffered (write(2)).
            _exit(status)
        }
        thread.name = "reel-exit-deadline"
        thread.start()
    }
}
