import Foundation

/// The entry point: `main.swift` calls `ReelApp.main()` and nothing else.
public enum ReelApp {
    public static func main() {
        ExitTrace.installIfRequested()
        ReelCommand.main()
    }
}
