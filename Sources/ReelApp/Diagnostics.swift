import Foundation
import ReelCore

/// What Reel says to people on stderr: one line, prefixed "reel: ", secrets redacted.
enum Diagnostics {
    static func say(_ message: String) {
        FileHandle.standardError.write(Data("reel: \(Redactor.redactText(message))\n".utf8))
    }
}
