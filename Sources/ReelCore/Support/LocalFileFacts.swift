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
