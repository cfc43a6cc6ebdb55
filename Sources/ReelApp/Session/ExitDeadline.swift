import Foundation
import ReelCore

/// Once a session's main loop has ended (`q`, the window closed, the socket's or MPRIS's quit,
/// SIGTERM, the end of the queue), the process is gone within `seconds` whatever GStreamer or
/// the gateway are doing (1 s: on a busy machine the 1.5 s it was left too little room before
/// the 2 s a user, and QuitDeadlineTests, allow): the orderly shutdown (resume positions first, then the pipeline to the
/// reaper, the gateway's connections) runs as before, and if it has not returned by then, stdout
/// and stderr are flushed and the process ends with the status it was going to have.
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
        let thread = Thread {
            Thread.sleep(forTimeInterval: seconds)
            Log.debug(.app, .info, "exit: the shutdown took longer than \(seconds) s; leaving now")
            fflush(nil)
            _exit(status)
        }
        thread.name = "reel-exit-deadline"
        thread.start()
    }
}
