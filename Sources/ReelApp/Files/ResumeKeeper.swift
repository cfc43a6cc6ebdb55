import Foundation
import ReelCore
import ReelEngine

/// Remembers where every item was left and starts it there next time (`--no-resume` turns it off).
///
/// Follows the queue's events: the position of the item playing (its last tick), kept by
/// `ResumeRule` when another item is loaded and when Reel quits, forgotten when the item plays to
/// its end. When an item is loaded and the book has a place for it, the player is asked to start
/// there (a seek before preroll: the first frame is the resumed one) and `onResumed` tells the
/// front ends (the `resumed` event, the window's notice with "Start over").
@MainActor
final class ResumeKeeper {
    private let file: ResumeFile
    private var book: ResumeBook
    private let player: Player
    private let now: () -> Double
    private var current: (key: String, index: Int)?
    private var position = 0.0
    private var duration: Double?
    private var isLive = false
    private var ended = false
    /// What the entry kept besides the place, applied once the item is ready (its tracks known).
    private var pendingSettings: ResumeBook.Settings?

    /// The volume the session started with: an item's own is kept only when it differs.
    private let startVolume: Double

    var onResumed: (_ position: Double, _ index: Int) -> Void = { _, _ in }

    init(file: ResumeFile, player: Player, now: @escaping () -> Double = { Date().timeIntervalSince1970 }) {
        self.file = file
        self.player = player
        self.now = now
        startVolume = player.volume
        book = file.read()
    }

    /// The queue item `index` (uri `uri`) was loaded or switched to.
    func itemChanged(index: Int?, uri: String?) {
        leaveCurrent()
        resetItem()
        guard let index, let uri, let key = ResumeKey.key(for: uri) else { current = nil; return }
        current = (key, index)
        if let entry = book.entry(for: key), let start = ResumeRule.startPosition(for: entry, duration: nil) {
            player.seek(to: start, mode: .accurate)
            position = start
            pendingSettings = entry.settings
            if let delay = entry.settings.subtitleDelay { player.setSubtitleDelay(delay) }
            if let delay = entry.settings.audioDelay { player.setAudioDelay(delay) }
            onResumed(start, index)
        }
    }

    func handle(_ event: PlayerEvent) {
        switch event {
        case .progress(let p, let d, _, let live):
            position = p
            if let d { duration = d }
            if live != nil { isLive = true }
        case .duration(let d): duration = d ?? duration
        case .mediaInfo(let info): if info.isLive { isLive = true }
        case .seeked(let p): position = p
        case .status(.readyToPlay):
            if let settings = pendingSettings { restore(settings) }
        case .playedToEnd:
            ended = true
            leaveCurrent()  // forgotten at once: a finished item starts at 0 next time
        default: break
        }
    }

    /// The right-click menu's "Forget this file": what the book kept of the item playing goes, and
    /// nothing is kept of it when it is left (until it is played again).
    func forgetCurrent() {
        guard let current else { return }
        book = file.apply(.forget, key: current.key, now: now())
        ended = true
    }

    /// "Start over": the item plays from 0 and its place is forgotten.
    func startOver() {
        guard let current else { return }
        book = file.apply(.forget, key: current.key, now: now())
        position = 0
        player.seek(to: 0, mode: .accurate)
    }

    /// Reel quits: the current item's place is kept.
    func finish() {
        if current != nil, !ended, player.currentURI != nil { position = player.position }  // the exact place, not the last tick
        leaveCurrent()
        current = nil
    }

    private func leaveCurrent() {
        guard let current else { return }
        let decision = ResumeRule.decide(position: position, duration: duration, isLive: isLive, ended: ended)
        book = file.apply(decision, key: current.key, now: now(), settings: settings)
    }

    /// What the item is left with (mpv's watch-later's): the tracks (language, title, index), the
    /// delays, the speed, the volume when changed, the A-B loop.
    private var settings: ResumeBook.Settings {
        let tracks = player.tracks
        let audio = tracks.filter { $0.kind == .audio }, subtitles = tracks.filter { $0.kind == .subtitle }
        let a = audio.firstIndex { $0.id == player.audioTrack }, s = subtitles.firstIndex { $0.id == player.subtitleTrack }
        let loop = player.abLoop
        return ResumeBook.Settings(audioTrack: a, subtitleTrack: subtitles.isEmpty ? nil : (s ?? -1),
                                   subtitleDelay: player.subtitleDelay, speed: player.rate,
                                   audioLanguage: a.flatMap { audio[$0].language }, audioTitle: a.flatMap { audio[$0].title },
                                   subtitleLanguage: s.flatMap { subtitles[$0].language }, subtitleTitle: s.flatMap { subtitles[$0].title },
                                   audioDelay: player.audioDelay == 0 ? nil : player.audioDelay,
                                   volume: abs(player.volume - startVolume) < 0.0005 ? nil : player.volume,
                                   abLoop: loop.a == nil && loop.b == nil ? nil : loop)
    }

    /// What was kept, once the item is ready (the preferred languages chose before): the tracks
    /// found again by language and title (`ResumeBook.Settings.trackIndex`), the speed, the volume
    /// and the A-B loop.
    private func restore(_ settings: ResumeBook.Settings) {
        pendingSettings = nil
        let tracks = player.tracks
        let audio = tracks.filter { $0.kind == .audio }, subtitles = tracks.filter { $0.kind == .subtitle }
        if let i = ResumeBook.Settings.trackIndex(in: audio, index: settings.audioTrack, language: settings.audioLanguage, title: settings.audioTitle),
           audio[i].id != player.audioTrack {
            player.selectAudioTrack(audio[i].id)
        }
        if settings.subtitleTrack == -1 {
            if player.subtitleTrack != nil { player.selectSubtitleTrack(nil) }
        } else if let i = ResumeBook.Settings.trackIndex(in: subtitles, index: settings.subtitleTrack, language: settings.subtitleLanguage,
                                                         title: settings.subtitleTitle),
                  subtitles[i].id != player.subtitleTrack {
            player.selectSubtitleTrack(subtitles[i].id)
        }
        if let speed = settings.speed, speed != player.rate { player.setRate(speed) }
        if let volume = settings.volume { player.volume = volume }
        if let loop = settings.abLoop { player.setABLoop(loop) }
    }

    private func resetItem() {
        pendingSettings = nil
        position = 0
        duration = nil
        isLive = false
        ended = false
    }
}
