/// What the user chose for every item, carried as one value from the command line (and
/// reel.conf) to the player: the preferred audio and subtitle languages (`--alang`, `--slang`,
/// first match wins), subtitle files for every item (`--sub-file`, absolute paths, listed after
/// the files found beside it), the subtitles' size, delay and position (`--sub-scale`,
/// `--sub-delay`, `--sub-pos`) and hardware video decoding (`--hwdec`).
public struct PlaybackPreferences: Sendable, Equatable {
    public var audioLanguages: [String] = []
    public var subtitleLanguages: [String] = []
    public var subtitleFiles: [String] = []
    public var subtitleLook = SubtitleAdjustments()
    /// `auto`: the working hardware decoders go first; `no`: GStreamer's ranks stay.
    public var hardwareDecoding: HardwareDecodingMode = .auto

    public init() {}
}
