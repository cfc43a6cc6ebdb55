import Foundation

/// A folder given as an input (`reel ~/Music/Album`, a folder dropped on the window) is its media
/// files, as mpv, VLC and Totem play one: by name in natural order (2 before 10, case aside),
/// subfolders where their names fall, hidden entries and other files (covers, subtitles, text,
/// playlists) left out. Symbolic links to folders are not followed (no loops); at most
/// `maxDepth` levels and `maxFiles` files.
public enum MediaFolder {
    public static let maxDepth = 8
    public static let maxFiles = 10_000

    /// Extensions of the files a folder plays (lower case).
    public static let mediaExtensions: Set<String> = [
        // video
        "mp4", "m4v", "mkv", "webm", "mov", "avi", "wmv", "asf", "flv", "mpg", "mpeg", "m2v", "ts", "m2ts", "mts", "vob",
        "ogv", "3gp", "3g2", "divx", "mxf", "y4m",
        // audio
        "mp3", "m4a", "m4b", "aac", "flac", "ogg", "oga", "opus", "wav", "wma", "ape", "wv", "mka", "aif", "aiff", "aifc",
        "mpc", "ac3", "eac3", "dts", "amr", "au", "caf", "mp2", "spx", "tta", "mid", "midi",
    ]

    /// Whether a file of this name is played from a folder.
    public static func isMediaFile(_ name: String) -> Bool {
        guard !name.hasPrefix(".") else { return false }
        let ext = (name as NSString).pathExtension.lowercased()
        return mediaExtensions.contains(ext)
    }

    /// Names in the order a folder plays them: natural (numbers by value), case-insensitive.
    public static func sorted(_ names: [String]) -> [String] {
        names.sorted { a, b in
            let order = a.compare(b, options: [.numeric, .caseInsensitive])
            return order == .orderedSame ? a < b : order == .orderedAscending
        }
    }

    /// mpv's autoload: the media files beside `file` (its folder, not below it) in play order,
    /// the file itself among them, and its index; nil when it has no playable sibling or the
    /// folder cannot be read.
    public static func siblings(of file: String) -> (files: [String], index: Int)? {
        let folder = (file as NSString).deletingLastPathComponent, name = (file as NSString).lastPathComponent
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else { return nil }
        var chosen: [String] = []
        for other in names where other == name || isMediaFile(other) {
            guard chosen.count < maxFiles else { break }
            let full = (folder as NSString).appendingPathComponent(other)
            // Regular files (or links to them), never folders.
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            chosen.append(other)
        }
        let ordered = sorted(chosen)
        guard ordered.count > 1, let index = ordered.firstIndex(of: name) else { return nil }
        return (ordered.map { (folder as NSString).appendingPathComponent($0) }, index)
    }

    /// The media files under `path` (a folder), as absolute paths in play order; empty when it has
    /// none or cannot be read.
    public static func files(in path: String) -> [String] {
        var found: [String] = []
        collect(path, depth: 0, into: &found)
        return found
    }

    private static func collect(_ folder: String, depth: Int, into found: inout [String]) {
        guard depth <= maxDepth, found.count < maxFiles,
              let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in sorted(names) where !name.hasPrefix(".") {
            guard found.count < maxFiles else { return }
            let full = (folder as NSString).appendingPathComponent(name)
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: full) else { continue }  // lstat: a link is a link
            switch attributes[.type] as? FileAttributeType {
            case .typeDirectory?:
                collect(full, depth: depth + 1, into: &found)
            case .typeRegular?, .typeSymbolicLink?:
                // A link to a file plays as the file; a link to a folder is not a media name.
                if isMediaFile(name) { found.append(full) }
            default:
                continue
            }
        }
    }
}
