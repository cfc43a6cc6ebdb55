/// What every remote control (the IPC socket, MPRIS, input.conf, the window's keys) drives: the
/// transport of a player with a queue, and the snapshot of its state. The session's queue
/// controller adopts it (ReelApp's `QueueCommandTarget`). Settings are not here: each is a
/// property its owner declares (`Property`, `PropertyTable`), and commands beyond the transport
/// are registered by their owners (`IPCCommandRegistry`).
@MainActor
public protocol PlaybackCommandTarget: AnyObject {
    /// The current state, taken in one piece.
    var snapshot: PlaybackSnapshot { get }

    func play()
    func pause()
    func toggle()
    /// Stops: back to the start of the current item, which is kept.
    func stop()
    func seek(to seconds: Double, mode: SeekMode)
    func skip(by seconds: Double)
    /// Returns false when there is no such item.
    func next() -> Bool
    func previous() -> Bool
    func jump(to index: Int) -> Bool
    /// Plays, loads (paused at its start) or toggles the item at `index`; false when there is
    /// no such item.
    func item(_ action: IPCCommand.ItemAction, at index: Int) -> Bool
    /// Moves item `from` so that it takes the place of item `to` (mpv's `playlist-move`: `to` is
    /// an insertion point in the queue as it was; the count moves it to the end), as a drop in
    /// the playlist panel does; false when there is no such item.
    func moveItem(from: Int, to: Int) -> Bool
    /// Takes item `index` out of the queue (the current one: playback goes on with the next),
    /// as Delete in the panel does; false when there is no such item.
    func removeItem(at index: Int) -> Bool
    /// Replaces the queue with `input` and plays it; `options` are the item's own (its own
    /// headers, as a playlist entry's).
    func load(_ input: String, options: [String: [String]])
    /// Adds `input` at the end of the queue.
    func append(_ input: String, options: [String: [String]])
    /// Captures the frame on screen once any seek in flight has landed.
    func captureFrame(_ completion: @escaping @MainActor (Result<CapturedFrame, PlaybackError>) -> Void)
    /// Captures the window as the user sees it (PNG); a headless session fails with "no window".
    func captureWindow(_ completion: @escaping @MainActor (Result<CapturedFrame, PlaybackError>) -> Void)
    /// Ends the program with `status` (after pending replies are sent).
    func quit(status: Int32)
}
