import Foundation
import ReelCore

/// What Reel says to people on stderr: one line, prefixed "reel: ", secrets redacted.
enum Diagnostics {
    static func say(_ message: String) {
        Log.say(message)
    }
}
