import ReelCore

/// The subtitles as the player draws them, in one value it owns (issue 29: four fields of
/// `Player`'s own): whether the chosen track is shown (`v`), their size, delay and position
/// (`F`/`G`, `z`/`Z`, `r`/`R`), the cues the overlay was given last, and the item's subtitle
/// files being read off the main thread.
struct SubtitleDrawing {
    var shown = true
    var look = SubtitleAdjustments()
    /// nil: none.
    var timeline: SubtitleTimeline?
    let reads = SubtitleReads()
}
