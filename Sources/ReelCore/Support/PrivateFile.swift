import Foundation

/// Files Reel creates that may hold what a user would not share (an HTTP log naming protected
/// hosts, a playlist with signed URLs, the control socket's directory), made so that another local
/// user cannot read them, redirect them with a symlink, or take their place:
/// - never through a symlink (`O_NOFOLLOW`, or a rename that replaces the link itself);
/// - owner-only (0600 / 0700), checked after opening (`fstat`), not just asked for;
/// - a directory is used only when it is the user's own, not a symlink, and private.
public enum PrivateFile {
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public var description: String
        init(_ path: String, _ why: String) { description = "\(path): \(why)" }
    }

    /// Opens `path` for appending, creating it 0600; refuses a symlink, a non-regular file and a
    /// file of another user; an existing file of the user's is made 0600. Returns the descriptor.
    public static func openForAppend(_ path: String) throws(Failure) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK, 0o600)
        guard fd >= 0 else {
            let e = errno
            throw Failure(path, e == ELOOP ? "is a symbolic link (refused)" : String(cString: strerror(e)))
        }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { close(fd); throw Failure(path, "is not a regular file") }
        guard st.st_uid == getuid() else { close(fd); throw Failure(path, "belongs to another user") }
        fchmod(fd, 0o600)
        return fd
    }

    /// Writes `data` to `path` through a new file in the same directory renamed over it, so a
    /// symlink at `path` is replaced, never followed. `mode` is set on the new file at creation.
    /// `durable`: the new file is on the disk before the rename, and the rename before the
    /// return (fsync of the file, then of its directory): after a crash or a power cut `path`
    /// holds the old content or the new, whole.
    public static func write(_ data: Data, to path: String, mode: mode_t, durable: Bool = false) throws(Failure) {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = (directory.isEmpty ? "." : directory) + "/.\((path as NSString).lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
        guard fd >= 0 else { throw Failure(path, String(cString: strerror(errno))) }
        fchmod(fd, mode)  // the umask may have taken bits away; never adds any beyond `mode`
        let written = data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
        let synced = !durable || fsync(fd) == 0
        close(fd)
        guard written, synced, rename(temporary, path) == 0 else {
            let why = String(cString: strerror(errno))
            unlink(temporary)
            throw Failure(path, why)
        }
        if durable {
            let dir = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if dir >= 0 {
                fsync(dir)
                close(dir)
            }
        }
    }

    /// Makes `path` a private directory (0700) or checks that the existing one is: a directory,
    /// not a symlink, the user's own, with no access for group or others.
    public static func privateDirectory(_ path: String) throws(Failure) {
        if mkdir(path, 0o700) != 0, errno != EEXIST { throw Failure(path, String(cString: strerror(errno))) }
        var st = stat()
        guard lstat(path, &st) == 0 else { throw Failure(path, String(cString: strerror(errno))) }
        guard (st.st_mode & S_IFMT) == S_IFDIR else { throw Failure(path, "is not a directory (a symbolic link or a file is refused)") }
        guard st.st_uid == getuid() else { throw Failure(path, "belongs to another user") }
        guard st.st_mode & 0o077 == 0 else { throw Failure(path, "is open to other users (mode \(String(st.st_mode & 0o777, radix: 8)))") }
    }
}
