import Foundation

/// Where Reel keeps what it remembers between runs: `$XDG_STATE_HOME/reel/` (else
/// `~/.local/state/reel/`), private to the user.
enum StateDirectory {
    /// The path of `name` in it; nil when neither XDG_STATE_HOME nor HOME is set.
    static func path(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/reel/" + name }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/state/reel/" + name }
        return nil
    }
}
