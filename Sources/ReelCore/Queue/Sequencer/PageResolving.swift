/// Turns a web page that holds a video into the items to play: ReelApp's yt-dlp helper
/// (`YTDLHelper`), as mpv's ytdl_hook. The sequencer asks only for an item the engine refused as a
/// web page by its bytes (`PlaybackError.refusedContent == .webPage`): never for a file, a
/// playlist or a stream Reel plays itself.
@MainActor
public protocol PageResolving: AnyObject {
    /// Whether `item` is looked up (yt-dlp on, an http(s) page).
    func resolves(_ item: QueueItem) -> Bool
    /// Looks `item` up off the main thread; `done` runs once, on the main thread: the items to play
    /// in its place (the first keeps its id), or why there are none.
    func resolve(_ item: QueueItem, done: @escaping @MainActor (Result<[QueueItem], PlaybackError>) -> Void)
}
