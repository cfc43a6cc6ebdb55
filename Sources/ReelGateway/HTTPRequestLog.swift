import Foundation
import ReelCore
import Synchronization

/// `--http-log FILE`: one line per upstream request, for QA:
///
///     2026-11-21T08:47:38.120Z GET http://127.0.0.1:8000/live/seg3.ts?Authorization=*** 200 188000 12ms
///
/// time, method, URL (redacted), status (or `ERR`), body bytes, milliseconds, and a note
/// (`redirect`, `retry`, `credentials-dropped`, `cancelled`) when there is one. The file is
/// created (or re-permissioned) with mode 0600, never through a symlink, never another user's
/// file (`PrivateFile`): it names hosts and paths of protected streams.
public final class HTTPRequestLog: Sendable {
    private let handle: Mutex<FileHandle?>
    public let path: String

    public init(path: String) throws {
        self.path = path
        let fd: Int32
        do { fd = try PrivateFile.openForAppend(path) } catch {
            throw PlaybackError(kind: .output, message: "The HTTP log could not be opened: \(error).")
        }
        handle = Mutex(FileHandle(fileDescriptor: fd, closeOnDealloc: true))
    }

    public func record(method: String, url: String, status: Int?, bytes: Int64, milliseconds: Int, note: String? = nil) {
        let time = HTTPRequestLog.timestamp()
        var line = "\(time) \(method) \(Redactor.redactURL(url)) \(status.map(String.init) ?? "ERR") \(bytes) \(milliseconds)ms"
        if let note { line += " " + Redactor.redactText(note) }
        line += "\n"
        handle.withLock { $0?.write(Data(line.utf8)) }
    }

    public func close() {
        handle.withLock {
            try? $0?.close()
            $0 = nil
        }
    }

    static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
    }
}
