import ArgumentParser
import ReelCore

/// `--ytdl`, `--ytdl-format`, `--ytdl-raw-options`: mpv's names for the web pages Reel plays
/// through yt-dlp (`YTDLHelper`); reel.conf takes them as `ytdl=no`, `ytdl-format=…`.
struct YTDLOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A web page that holds a video (not media itself) is played through yt-dlp, when it is installed (mpv's ytdl). no: a web page is an error.", valueName: "yes|no"))
    var ytdl: String?

    @Option(help: ArgumentHelp("The format yt-dlp chooses, as its -f takes it (mpv's --ytdl-format). Default: bv*+ba/b, as mpv's (the best video with the best audio, joined as one item; else the best format with both).", valueName: "EXPRESSION"))
    var ytdlFormat: String?

    @Option(help: ArgumentHelp("More yt-dlp options, as mpv's --ytdl-raw-options: key=value,key2=value2 (each --key value; a key alone is a flag).", valueName: "OPTIONS"))
    var ytdlRawOptions: String?

    func settings() throws -> YTDLSettings {
        guard ytdl == nil || ["yes", "no"].contains(ytdl) else { throw ValidationError("--ytdl takes yes or no.") }
        var s = YTDLSettings()
        s.enabled = ytdl != "no"
        if let ytdlFormat {
            guard !ytdlFormat.isEmpty, ytdlFormat.count <= 500, !ytdlFormat.hasPrefix("-") else { throw ValidationError("--ytdl-format takes a yt-dlp format expression, such as bv*+ba/b.") }
            s.format = ytdlFormat
        }
        if let ytdlRawOptions {
            guard let arguments = YTDLSettings.rawArguments(ytdlRawOptions) else {
                throw ValidationError("--ytdl-raw-options takes key=value pairs separated by commas (a key is letters, digits and -).")
            }
            s.rawArguments = arguments
        }
        return s
    }
}
