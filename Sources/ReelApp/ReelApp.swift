import Foundation
import ReelCore
import ReelDesktop
import ReelEngine

/// The entry point: `main.swift` calls `ReelApp.main()` and nothing else.
public enum ReelApp {
    public static func main() {
        // First, while this is the only thread: setlocale is not safe beside threads that read the
        // locale (GIO's dconf worker, started below, did: "double free or corruption" at start).
        Localization.setUp()
        StartupTrace.mark("main")
        ExitTrace.installIfRequested()
        // A reader that closed its end (`reel --events | head -1`, a socket client gone) is an
        // EPIPE to handle where it is written, never the end of the process.
        signal(SIGPIPE, SIG_IGN)
        // Before any thread can reach GIO (GTK, souphttpsrc, the network monitor): see GIODefaults.
        GIODefaults.prepare()
        // A preroll-watchdog probe may still be inside GStreamer on its own thread: let it end
        // (bounded) before the process does.
        atexit {
            Player.awaitBackgroundProbes(timeout: 3)
            StartupTrace.mark("exit")
        }
        ReelCommand.mainExitingTwoOnUsage()
    }
}
