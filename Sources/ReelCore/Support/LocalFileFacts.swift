import Foundation

/// What a local path is, as the player must know it before GStreamer opens it: a regular file
/// (and its size), a folder, something else (a pipe, a device, a socket: /dev/zero read as a
/// video, a FIFO that blocks GStreamer's filesrc forever), or nothing. Symlinks are followed.
public struct LocalFileFacts: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case regular
        case directory
        /// A FIFO, a character or block device, a socket.
        case special
    }

    /// nil when nothing is there (or it cannot be looked at).
    public var kind: Kind?
    /// A regular file's size in bytes.
    public var size: Int64?

    public init(kind: Kind?, size: Int64?) {
        self.kind = kind
        self.size = size
    }

    public init(path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { self.init(kind: nil, size: nil); return }
        switch st.st_mode & S_IFMT {
        case S_IFREG: self.init(kind: .regular, size: Int64(st.st_size))
        case S_IFDIR: self.init(kind: .directory, size: nil)
        default: self.init(kind: .special, size: nil)
        }
    }

    /// Whether the player may hand it to GStreamer: a regular file with bytes in it.
    public var isPlayable: Bool { kind == .regular && (size ?? 0) > 0 }
}

extension LocalFileFacts {
    /// `file` (a relative path) inside `dir` when it is a regular file reached through folders
    /// only: no `..`, no absolute path, and no symbolic link anywhere on the way. For folders
    /// that come from someone else (a `reel check merge` shard, a `--golden` reference): a shard
    /// whose `frames/`, `marks/` or `checks/N` was a link once had a private key copied into the
    /// merged report. `dir` itself is the user's to name.
    public static func regularFile(_ file: String, inside dir: URL) -> URL? {
        let parts = file.split(separator: "/", omittingEmptySubsequences: true)
        guard !parts.isEmpty, !file.hasPrefix("/"), !parts.contains("..") else { return nil }
        var path = dir.path
        for (k, part) in parts.enumerated() {
            path += "/" + part
            var info = stat()
            guard lstat(path, &info) == 0 else { return nil }
            let type = info.st_mode & S_IFMT
            if k == parts.count - 1 { return type == S_IFREG ? URL(fileURLWithPath: path) : nil }
            guard type == S_IFDIR else { return nil }
        }
        return nil
    }
}
