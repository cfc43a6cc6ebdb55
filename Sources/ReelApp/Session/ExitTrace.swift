import Foundation
import ReelCore
#if canImport(Glibc)
import Glibc
#endif

/// A diagnostic for the test harness: with `REEL_TRACE_EXIT=1` in the environment, every exit
/// through `exit()` prints the calling thread's stack to stderr, so a process that ends early
/// and silently says who ended it. (An exit through `_exit()` or a signal prints nothing: that
/// absence is evidence too.)
enum ExitTrace {
    static func installIfRequested() {
        guard ProcessInfo.processInfo.environment["REEL_TRACE_EXIT"] == "1" else { return }
        atexit {
            let stack = Thread.callStackSymbols.joined(separator: "\n")
            Log.say("exit trace (pid \(getpid()), thread \(Thread.isMainThread ? "main" : "other")):\n\(stack)")
        }
    }
}
