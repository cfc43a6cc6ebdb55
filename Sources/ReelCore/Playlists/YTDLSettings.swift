/// How Reel runs yt-dlp for a web page (`--ytdl`, `--ytdl-format`, `--ytdl-raw-options`).
public struct YTDLSettings: Sendable, Equatable {
    public var enabled = true
    /// yt-dlp's `-f`, mpv's default: the best video with the best audio (joined as one item), or
    /// else the best format with both.
    public var format = "bv*+ba/b"
    /// Arguments after Reel's own, from `--ytdl-raw-options`.
    public var rawArguments: [String] = []
    /// Seconds a run may take before it is stopped (yt-dlp on a slow site takes several).
    public var deadline = 30.0
    /// Bytes of JSON a run may print (a channel's playlist is a few MB).
    public var maximumOutput = 32 << 20

    public init() {}

    /// mpv's `--ytdl-raw-options` text (`key=value,key2=value2`, `key=` or `key` a flag) as
    /// yt-dlp's arguments (`--key value --key2 value2`); nil when a key is not an option's name.
    /// A value cannot hold a comma (mpv's own rule for this list).
    public static func rawArguments(_ text: String) -> [String]? {
        var arguments: [String] = []
        for pair in text.split(separator: ",", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = String(parts[0])
            guard !key.isEmpty, key.count <= 60, !key.hasPrefix("-"), key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else { return nil }
            arguments.append("--" + key)
            if parts.count == 2, !parts[1].isEmpty { arguments.append(String(parts[1])) }
        }
        return arguments
    }

    /// yt-dlp's command line for `page`: its JSON document of the page (`-J`), a playlist's
    /// entries unresolved (each looked up when it plays), no warnings on stdout.
    public func arguments(for page: String) -> [String] {
        ["-J", "--no-warnings", "--flat-playlist", "--no-progress", "-f", format] + rawArguments + ["--", page]
    }
}
