/// What remote controls (the IPC socket, MPRIS) drive: the operations of a player with a queue.
/// The session's queue controller adopts it (ReelApp's `QueueCommandTarget`).
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
    /// Jumps to the live edge of a live item; false when the item is not live.
    func seekToLiveEdge() -> Bool
    /// Returns false when the rate was refused (the old rate stays).
    func setRate(_ rate: Double) -> Bool
    /// Linear volume, 0…1.
    func setVolume(_ volume: Double)
    func setMuted(_ muted: Bool)
    /// Returns false when there is no such item.
    func next() -> Bool
    func previous() -> Bool
    func jump(to index: Int) -> Bool
    /// Plays, loads (paused at its start) or toggles the item at `index`; false when there is
    /// no such item or the target has no queue.
    func item(_ action: IPCCommand.ItemAction, at index: Int) -> Bool
    /// Moves item `from` so that it takes the place of item `to` (mpv's `playlist-move`: `to` is
    /// an insertion point in the queue as it was; the count moves it to the end), as a drop in
    /// the playlist panel does; false when there is no such item or the target has no queue.
    func moveItem(from: Int, to: Int) -> Bool
    /// Takes item `index` out of the queue (the current one: playback goes on with the next),
    /// as Delete in the panel does; false when there is no such item or no queue.
    func removeItem(at index: Int) -> Bool
    /// Replaces the queue with `input` and plays it.
    func load(_ input: String)
    /// Adds `input` at the end of the queue.
    func append(_ input: String)
    /// `load` and `append` with the item's own options (its own headers, as a playlist entry's).
    func load(_ input: String, options: [String: [String]])
    func append(_ input: String, options: [String: [String]])
    /// Returns false when looping/shuffling is not supported by this target.
    func setLoop(_ mode: PlaybackSnapshot.LoopMode) -> Bool
    func setShuffle(_ on: Bool) -> Bool
    /// What network items do on a metered connection from now on; false when not supported.
    func setMeteredPolicy(_ policy: MeteredPolicy) -> Bool
    /// The quality choice for adaptive streams from now on; false when not supported.
    func setQuality(_ choice: QualityChoice) -> Bool
    /// How the picture fills the video area from now on; false when not supported.
    func setAspectMode(_ mode: AspectMode) -> Bool
    /// Hardware video decoding from the next item on; false when not supported.
    func setHardwareDecoding(_ mode: HardwareDecodingMode) -> Bool
    /// Whether the window fills the screen; nil without a window.
    var isFullscreen: Bool? { get }
    /// Makes the window fill the screen (or not), as `F` does; false without a window.
    func setFullscreen(_ on: Bool) -> Bool
    /// Plays the `index`-th track of `kind` (audio or subtitle; nil: no subtitles); false when
    /// there is no such track or tracks are not supported.
    func selectTrack(_ kind: MediaTrack.Kind, index: Int?) -> Bool
    /// Plays the track `id` of `kind` (nil: no subtitles), as the window's menu does; false when
    /// there is no such track or tracks are not supported.
    func selectTrack(_ kind: MediaTrack.Kind, id: String?) -> Bool
    /// The next track of `kind` (subtitles: after the last, none), as `#` and `j` do; false when
    /// the item has none of that kind or tracks are not supported.
    func cycleTrack(_ kind: MediaTrack.Kind) -> Bool
    /// Steps one frame forward or back, pausing first (`.` and `,`); false when nothing has
    /// started yet or frame steps are not supported.
    func stepFrame(forward: Bool) -> Bool
    /// Shows or hides the chosen subtitles; false when not supported.
    func setSubtitlesShown(_ shown: Bool) -> Bool
    /// Sets the subtitles' size factor (clamped); false when not supported.
    func setSubtitleScale(_ scale: Double) -> Bool
    /// Sets the subtitle delay in seconds (clamped; positive: later); false when not supported.
    func setSubtitleDelay(_ delay: Double) -> Bool
    /// Sets the subtitles' vertical position (0–150, clamped); false when not supported.
    func setSubtitlePosition(_ position: Int) -> Bool
    /// Adds a subtitle file (a path) to the current item and shows it (mpv's `sub-add`); false
    /// when nothing is loaded or it is not supported.
    func addSubtitleFile(_ path: String) -> Bool
    /// Seeks to chapter `index`'s start (`chapter`); false when there is no such chapter.
    func selectChapter(_ index: Int) -> Bool
    /// To the next (1) or previous (-1) chapter, as mpv's `add chapter` (PgDn, PgUp); false when
    /// there is none that way.
    func stepChapter(_ step: Int) -> Bool
    /// Sets the A-B loop's points (nil clears one); false when not supported.
    func setABLoop(_ loop: ABLoop) -> Bool
    /// `l`: A at the position, then B, then neither; false when not supported.
    func cycleABLoop() -> Bool
    /// Sets the audio delay in seconds (±600; positive: the sound later); false when not supported.
    func setAudioDelay(_ seconds: Double) -> Bool
    /// Sets one picture control (-100…100, clamped); false when not supported.
    func setPicture(_ control: PictureAdjustments.Control, to value: Int) -> Bool
    /// Sets the picture's rotation, zoom and pan; false when not supported.
    func setVideoGeometry(_ geometry: VideoGeometry) -> Bool
    /// Captures the frame on screen once any seek in flight has landed.
    func captureFrame(_ completion: @escaping @MainActor (Result<CapturedFrame, PlaybackError>) -> Void)
    /// Captures the window as the user sees it (PNG). A windowed session answers it; a headless
    /// one fails with "no window".
    func captureWindow(_ completion: @escaping @MainActor (Result<CapturedFrame, PlaybackError>) -> Void)
    /// Ends the program with `status` (after pending replies are sent).
    func quit(status: Int32)
}

extension PlaybackCommandTarget {
    public func captureWindow(_ completion: @escaping @MainActor (Result<CapturedFrame, PlaybackError>) -> Void) {
        completion(.failure(PlaybackError(kind: .output, message: "There is no window in this session (headless): only the video frame can be captured.")))
    }

    public func setLoop(_ mode: PlaybackSnapshot.LoopMode) -> Bool { mode == .none }
    public func load(_ input: String, options: [String: [String]]) { load(input) }
    public func append(_ input: String, options: [String: [String]]) { append(input) }
    public func item(_ action: IPCCommand.ItemAction, at index: Int) -> Bool { false }
    public func moveItem(from: Int, to: Int) -> Bool { false }
    public func removeItem(at index: Int) -> Bool { false }
    public func seekToLiveEdge() -> Bool { false }
    public func setShuffle(_ on: Bool) -> Bool { !on }
    public func setMeteredPolicy(_ policy: MeteredPolicy) -> Bool { false }
    public func setQuality(_ choice: QualityChoice) -> Bool { false }
    public func setAspectMode(_ mode: AspectMode) -> Bool { false }
    public func selectChapter(_ index: Int) -> Bool { false }
    public func stepChapter(_ step: Int) -> Bool { false }
    public func setABLoop(_ loop: ABLoop) -> Bool { false }
    public func cycleABLoop() -> Bool { false }
    public func setAudioDelay(_ seconds: Double) -> Bool { false }
    public func setVideoGeometry(_ geometry: VideoGeometry) -> Bool { false }
    public func setPicture(_ control: PictureAdjustments.Control, to value: Int) -> Bool { false }
    public func setHardwareDecoding(_ mode: HardwareDecodingMode) -> Bool { false }
    public var isFullscreen: Bool? { nil }
    public func setFullscreen(_ on: Bool) -> Bool { false }
    public func selectTrack(_ kind: MediaTrack.Kind, index: Int?) -> Bool { false }
    public func selectTrack(_ kind: MediaTrack.Kind, id: String?) -> Bool { false }
    public func cycleTrack(_ kind: MediaTrack.Kind) -> Bool { false }
    public func stepFrame(forward: Bool) -> Bool { false }
    public func setSubtitlesShown(_ shown: Bool) -> Bool { false }
    public func setSubtitleScale(_ scale: Double) -> Bool { false }
    public func setSubtitleDelay(_ delay: Double) -> Bool { false }
    public func setSubtitlePosition(_ position: Int) -> Bool { false }
    public func addSubtitleFile(_ path: String) -> Bool { false }
}
