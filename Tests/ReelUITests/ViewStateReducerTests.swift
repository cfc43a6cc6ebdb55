import Foundation
import ReelCore
import ReelUI
import XCTest

/// The window's view state as a pure reducer over the queue's events and the socket's snapshot
/// (`PlayerViewState.apply`): each row is one event in one situation, and what the window then shows.
final class ViewStateReducerTests: XCTestCase {
    private let live = LivePosition(position: 30, window: 0...40, behindLiveEdge: 10, epochTime: 1_795_550_430)

    private func snapshot(_ change: (inout PlaybackSnapshot) -> Void = { _ in }) -> PlaybackSnapshot {
        var s = PlaybackSnapshot(items: [.init(uri: "file:///m/a.mp4", title: "Alpha"), .init(uri: "https://h/b.m3u8", title: "Bravo")],
                                 index: 0, position: 12.5, duration: 60, status: .readyToPlay, timeControl: .playing, wantsToPlay: true)
        change(&s)
        return s
    }

    func testEventsBecomeWhatTheWindowShows() {
        let context = ViewStateContext(noVideoOutput: nil, maxRetries: 6)
        var s = PlayerViewState()
        s.volume = 0.3

        // A new item: its title, nothing known of it yet.
        s.apply(.itemChanged(index: 0, uri: "file:///m/a.mp4", title: "Alpha"), item: 0, now: snapshot(), context: context)
        XCTAssertEqual(s.title, "Alpha")
        XCTAssertEqual(s.windowTitle, "Alpha — Reel")
        XCTAssertEqual(s.position, 0)
        XCTAssertNil(s.duration)
        XCTAssertTrue(s.wantsToPlay, "from the snapshot")
        XCTAssertEqual(s.volume, 0.3, "kept across items")

        s.apply(.duration(60), item: 0, now: snapshot(), context: context)
        XCTAssertEqual(s.duration, 60)
        // Time control: the position is the snapshot's at that moment.
        s.apply(.timeControl(.playing), item: 0, now: snapshot(), context: context)
        XCTAssertEqual(s.timeControl, .playing)
        XCTAssertEqual(s.position, 12.5)
        XCTAssertFalse(s.showsSpinner)
        s.apply(.timeControl(.waitingToPlayAtSpecifiedRate(.buffering(percent: 40))), item: 0, now: snapshot(), context: context)
        XCTAssertTrue(s.showsSpinner)

        // Progress, a resume notice that goes after 8 s of playback from there.
        s.apply(.resumed(position: 100), item: 0, now: snapshot(), context: context)
        s.apply(.progress(position: 104, duration: 60, tick: .fine), item: 0, now: snapshot(), context: context)
        XCTAssertEqual(s.resumedAt, 100)
        s.apply(.progress(position: 108.5, duration: 60, tick: .fine), item: 0, now: snapshot(), context: context)
        XCTAssertNil(s.resumedAt)
        XCTAssertEqual(s.position, 108.5)

        // An error names the queue's title; playing again clears the banner.
        s.apply(.error(PlaybackError(kind: .notFound, message: "It is not there.")), item: 1, now: snapshot(), context: context)
        XCTAssertEqual(s.errorBanner, PlayerViewState.errorText(item: "Bravo", message: "It is not there."))
        XCTAssertFalse(s.offersPlayAnyway)
        s.apply(.timeControl(.paused), item: 0, now: snapshot(), context: context)
        s.apply(.timeControl(.playing), item: 0, now: snapshot(), context: context)
        XCTAssertNil(s.errorBanner)
        // The metered policy's refusal offers "Play anyway"; a retry says which try.
        s.apply(.error(PlaybackError(kind: .preventedByPolicy, message: "Metered.")), item: 1, now: snapshot(), context: context)
        XCTAssertTrue(s.offersPlayAnyway)
        s.apply(.retrying(attempt: 2, delay: 1, error: PlaybackError(kind: .network, message: "x")), item: 1, now: snapshot(), context: context)
        XCTAssertEqual(s.errorBanner, "Reconnecting… (try 2 of 6)")
        XCTAssertFalse(s.offersPlayAnyway)
        s.apply(.timeControl(.waitingToPlayAtSpecifiedRate(.noNetwork)), item: 1, now: snapshot(), context: context)
        XCTAssertEqual(s.errorBanner, PlayerViewState.noNetworkText)
    }

    /// A live stream's title (an internet radio's song) comes first in the window's title, and
    /// follows the song; a file's own title tag does not replace its name there; the next item
    /// starts from its own name.
    func testARadiosSongIsInTheWindowTitle() {
        let context = ViewStateContext(noVideoOutput: nil, maxRetries: 6)
        var s = PlayerViewState()
        s.apply(.itemChanged(index: 1, uri: "https://h/radio", title: "Bravo"), item: 1, now: snapshot(), context: context)
        var info = MediaInfo(audioCodec: "MP3")
        info.isLive = true
        s.apply(.mediaInfo(info), item: 1, now: snapshot(), context: context)
        XCTAssertEqual(s.title, "Bravo", "no song said yet")
        info.title = "Artist - Song"
        s.apply(.mediaInfo(info), item: 1, now: snapshot(), context: context)
        XCTAssertEqual(s.title, "Artist - Song — Bravo")
        XCTAssertEqual(s.windowTitle, "Artist - Song — Bravo — Reel")
        s.apply(.rendition(index: 1, height: 720, bandwidth: 2_800_000, mode: "manual", reason: "manual"), item: 1, now: snapshot(), context: context)
        XCTAssertEqual(s.title, "Artist - Song — Bravo · 720p", "a pinned rendition as before, after it")
        info.title = "Other - Tune"
        s.apply(.mediaInfo(info), item: 1, now: snapshot(), context: context)
        XCTAssertEqual(s.title, "Other - Tune — Bravo · 720p")
        s.apply(.itemChanged(index: 0, uri: "file:///m/a.mp4", title: "Alpha"), item: 0, now: snapshot(), context: context)
        XCTAssertEqual(s.title, "Alpha")
        var file = MediaInfo(audioCodec: "MP3")
        file.title = "Tagged Title"
        s.apply(.mediaInfo(file), item: 0, now: snapshot(), context: context)
        XCTAssertEqual(s.title, "Alpha", "a file keeps its name")
    }

    func testLiveTracksRenditionsAndWhatTheSocketChanged() {
        let context = ViewStateContext(noVideoOutput: "No sink can draw in this window.", maxRetries: 6)
        var s = PlayerViewState()
        s.apply(.itemChanged(index: 1, uri: "https://h/b.m3u8", title: "Bravo"), item: 1, now: snapshot(), context: context)
        // A seek on a live item: the window and the badge from the snapshot.
        s.apply(.seeked(position: 30), item: 1, now: snapshot { $0.live = self.live }, context: context)
        XCTAssertEqual(s.live, live)
        XCTAssertEqual(s.position, 30)
        // Without a sink that draws in the window, playing does not clear that banner.
        s.errorBanner = "old"
        s.apply(.timeControl(.playing), item: 1, now: snapshot { $0.live = self.live }, context: context)
        XCTAssertEqual(s.errorBanner, "No sink can draw in this window.")
        // A rendition pinned: the title says its height, the menu lists the snapshot's renditions.
        let renditions = [HLSVariant(uri: "a.m3u8", bandwidth: 800_000, resolution: HLSResolution(width: 640, height: 360)),
                          HLSVariant(uri: "b.m3u8", bandwidth: 2_800_000, resolution: HLSResolution(width: 1280, height: 720))]
        s.apply(.rendition(index: 1, height: 720, bandwidth: 2_800_000, mode: "manual", reason: "manual"), item: 1,
                now: snapshot { $0.renditions = renditions }, context: context)
        XCTAssertEqual(s.title, "Bravo · 720p")
        XCTAssertEqual(s.qualityEntries.count, QualityEntry.entries(for: renditions).count)
        XCTAssertEqual(s.qualityChoice, "1")
        s.apply(.rendition(index: 0, height: 360, bandwidth: 800_000, mode: "auto", reason: "auto-down"), item: 1,
                now: snapshot { $0.renditions = renditions }, context: context)
        XCTAssertEqual(s.title, "Bravo · 360p")
        XCTAssertEqual(s.qualityChoice, "auto")
        // Tracks: the choice is the snapshot's.
        let tracks = [MediaTrack(id: "a1", kind: .audio, language: "en"), MediaTrack(id: "s1", kind: .subtitle, language: "fr")]
        s.apply(.tracks(tracks, selected: ["a1"], subtitlesShown: false), item: 1,
                now: snapshot { $0.audioTrack = "a1"; $0.subtitleTrack = "s1" }, context: context)
        XCTAssertEqual(s.tracks, tracks)
        XCTAssertEqual(s.audioTrack, "a1")
        XCTAssertEqual(s.subtitleTrack, "s1")
        XCTAssertFalse(s.subtitlesShown)
        // What the socket changed shows with the next event.
        s.apply(.rate(1.5), item: 1, now: snapshot { $0.meteredPolicy = .block; $0.hardwareDecoding = .no; $0.wantsToPlay = false }, context: context)
        XCTAssertEqual(s.rate, 1.5)
        XCTAssertEqual(s.meteredPolicy, .block)
        XCTAssertEqual(s.hardwareDecoding, .no)
        XCTAssertFalse(s.wantsToPlay)
        // A live item that is not seekable keeps its seek bar (its window is seekable by Reel).
        s.apply(.mediaInfo(MediaInfo(isLive: true, isSeekable: false)), item: 1, now: snapshot(), context: context)
        XCTAssertFalse(s.isSeekable)
        s.apply(.mediaInfo(MediaInfo(isLive: false, isSeekable: false)), item: 1, now: snapshot(), context: context)
        XCTAssertTrue(s.isSeekable)
    }

    /// A live item paused at its first frame (`--pause`) has no progress ticks: its window comes
    /// with the next event once the snapshot knows it, and its place with it; while it plays, the
    /// ticks alone move it.
    func testAPausedLiveItemShowsItsWindowWithTheNextEvent() {
        let context = ViewStateContext()
        var s = PlayerViewState()
        s.apply(.itemChanged(index: 1, uri: "https://h/b.m3u8", title: "Bravo"), item: 1, now: snapshot(), context: context)
        s.apply(.timeControl(.paused), item: 1, now: snapshot { $0.timeControl = .paused; $0.position = 0 }, context: context)
        XCTAssertNil(s.live, "the playlist is not read yet")
        s.apply(.mediaInfo(MediaInfo(isLive: true, isSeekable: true)), item: 1,
                now: snapshot { $0.timeControl = .paused; $0.live = self.live; $0.position = 30 }, context: context)
        XCTAssertEqual(s.live, live)
        XCTAssertEqual(s.position, 30)
        s.apply(.timeControl(.playing), item: 1, now: snapshot { $0.live = self.live; $0.position = 30 }, context: context)
        let later = LivePosition(position: 31, window: 0...41, behindLiveEdge: 10, epochTime: 1_795_550_431)
        s.apply(.rate(1), item: 1, now: snapshot { $0.live = later; $0.position = 31 }, context: context)
        XCTAssertEqual(s.live, live, "while playing, only the ticks move it")
    }

    /// An audio file's cover art fills the video area; a video's own picture wins, and the next
    /// item starts black.
    func testTheCoverArtOfAnAudioItemIsShownAndGoesWithIt() {
        let context = ViewStateContext()
        let cover = Data([0x89, 0x50, 0x4E, 0x47])
        let audio = snapshot { $0.coverArt = cover; $0.tracks = [MediaTrack(id: "a", kind: .audio)]; $0.mediaInfo.audioCodec = "MP3" }
        let video = snapshot { $0.coverArt = cover; $0.tracks = [MediaTrack(id: "v", kind: .video), MediaTrack(id: "a", kind: .audio)]
                               $0.mediaInfo.width = 640; $0.mediaInfo.height = 360 }
        var s = PlayerViewState()
        s.apply(.itemChanged(index: 0, uri: "file:///m/song.mp3", title: "Song"), item: 0, now: snapshot(), context: context)
        XCTAssertNil(s.coverArt, "nothing known yet")
        s.apply(.mediaInfo(audio.mediaInfo), item: 0, now: audio, context: context)
        XCTAssertEqual(s.coverArt, cover, "an audio item shows its cover")
        s.apply(.timeControl(.playing), item: 0, now: audio, context: context)
        XCTAssertEqual(s.coverArt, cover)
        s.apply(.itemChanged(index: 1, uri: "file:///m/film.mp4", title: "Film"), item: 1, now: audio, context: context)
        XCTAssertNil(s.coverArt, "the next item starts black")
        s.apply(.mediaInfo(video.mediaInfo), item: 1, now: video, context: context)
        XCTAssertNil(s.coverArt, "a video with a cover tag shows its video")
    }
}
