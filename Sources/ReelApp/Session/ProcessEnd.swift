import Foundation
import ReelCore
import ReelEngine

/// How `reel` (playing) ends once its session is over: with `_exit`, never `exit()`.
///
/// `exit()` runs the global destructors (ICU's, Foundation's) while the gateway's and GStreamer's
/// threads may still be at work: one rewriting a live playlist parsed its dates in ICU during
/// exit and aborted (QuitDeadlineTests, 2 runs of 20 beside a busy core), and the Swift runtime's
/// backtrace of that crash kept the process 2 s more, past `ExitDeadline` (whose `_exit` cannot
/// run while the crash handler holds the threads). The session has already saved what it keeps
/// (resume positions, recent files) and stopped its parts; what `atexit` did is done here.
enum ProcessEnd {
    static func now(status: Int32) -> Never {
        Player.awaitBackgroundProbes(timeout: 0.5)
        StartupTrace.mark("exit")
        if ProcessInfo.processInfo.environment["REEL_TRACE_EXIT"] == "1" {
            Log.say("exit trace (pid \(getpid()), _exit \(status) after the session):\n\(Thread.callStackSymbols.joined(separator: "\n"))")
        }
        // Events and the log are written unbuffered; anything else printed goes out now, from
        // the main thread (the deadline thread bounds this too).
        fflush(nil)
        _exit(status)
    }
}
