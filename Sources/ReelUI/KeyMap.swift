import ReelCore

/// The keyboard shortcuts, following mpv and Celluloid. Pure: a key (symbol + modifiers) and the
/// current view state in, a command out. The window feeds it every key press.
public enum KeyMap {
    /// Volume step for 9/0 and the wheel.
    public static let volumeStep = 0.05
    /// The speeds [ and ] step through.
    public static let rates: [Double] = [0.5, 0.75, 1, 1.25, 1.5, 2]

    public static func command(keyval: UInt32, modifiers: KeyModifiers, state: PlayerViewState) -> KeyCommand? {
        let shift = modifiers.contains(.shift)
        if modifiers.contains(.alt) {
            // mpv's: Alt+arrows pan, Alt++ / Alt+- zoom, Alt+BS back to the whole picture.
            switch keyval {
            case KeySym.left: return .action(.moveVideo(zoom: 0, panX: 0.1, panY: 0))
            case KeySym.right: return .action(.moveVideo(zoom: 0, panX: -0.1, panY: 0))
            case KeySym.up: return .action(.moveVideo(zoom: 0, panX: 0, panY: 0.1))
            case KeySym.down: return .action(.moveVideo(zoom: 0, panX: 0, panY: -0.1))
            case KeySym.plus, KeySym.equal, KeySym.kpAdd: return .action(.moveVideo(zoom: 0.1, panX: 0, panY: 0))
            case KeySym.minus, KeySym.kpSubtract: return .action(.moveVideo(zoom: -0.1, panX: 0, panY: 0))
            case KeySym.backSpace: return .action(.resetVideo)
            default: return nil
            }
        }
        if modifiers.contains(.control) {
            switch keyval {
            case KeySym.char("o"), KeySym.char("O"): return shift ? .openFolderDialog : .openFilesDialog
            case KeySym.char("l"), KeySym.char("L"): return .openURLDialog
            case KeySym.char("s"), KeySym.char("S"): return .action(.captureWindow)
            // mpv: ctrl++ / ctrl+- add audio-delay ±0.1 ('+' is Shift+'=' on most layouts).
            case KeySym.plus, KeySym.equal, KeySym.kpAdd: return .action(.changeAudioDelay(by: 0.1))
            case KeySym.minus, KeySym.kpSubtract: return .action(.changeAudioDelay(by: -0.1))
            default: return nil
            }
        }
        switch keyval {
        case KeySym.space, KeySym.char("p"), KeySym.char("P"): return .action(.playPause)
        case KeySym.char("f"), KeySym.f11: return .action(.toggleFullscreen)
        case KeySym.char("F"): return .action(.changeSubtitleScale(by: -SubtitleStyle.scaleStep))
        case KeySym.char("G"): return .action(.changeSubtitleScale(by: SubtitleStyle.scaleStep))
        case KeySym.char("z"): return .action(.changeSubtitleDelay(by: -SubtitleStyle.delayStep))
        case KeySym.char("Z"): return .action(.changeSubtitleDelay(by: SubtitleStyle.delayStep))
        case KeySym.char("r"): return .action(.changeSubtitlePosition(by: -1))
        case KeySym.char("R"): return .action(.changeSubtitlePosition(by: 1))
        case KeySym.escape: return state.isFullscreen ? .action(.toggleFullscreen) : nil
        case KeySym.char("m"), KeySym.char("M"): return .action(.toggleMute)
        case KeySym.char("1"): return .action(.changePicture(.contrast, by: -PictureAdjustments.step))
        case KeySym.char("2"): return .action(.changePicture(.contrast, by: PictureAdjustments.step))
        case KeySym.char("3"): return .action(.changePicture(.brightness, by: -PictureAdjustments.step))
        case KeySym.char("4"): return .action(.changePicture(.brightness, by: PictureAdjustments.step))
        case KeySym.char("5"): return .action(.changePicture(.gamma, by: -PictureAdjustments.step))
        case KeySym.char("6"): return .action(.changePicture(.gamma, by: PictureAdjustments.step))
        case KeySym.char("7"): return .action(.changePicture(.saturation, by: -PictureAdjustments.step))
        case KeySym.char("8"): return .action(.changePicture(.saturation, by: PictureAdjustments.step))
        case KeySym.char("l"): return .action(.cycleABLoop)
        case KeySym.char("i"): return .action(.showStats(sticky: false))
        case KeySym.char("I"): return .action(.showStats(sticky: true))
        case KeySym.char("L"): return .action(.toggleLoopFile)
        case KeySym.nine: return .action(.setVolume(volume(state.volume, by: -volumeStep, max: state.volumeMax)))
        case KeySym.zero: return .action(.setVolume(volume(state.volume, by: volumeStep, max: state.volumeMax)))
        case KeySym.left, KeySym.kpLeft: return .action(.skip(by: shift ? -1 : -5))
        case KeySym.right, KeySym.kpRight: return .action(.skip(by: shift ? 1 : 5))
        case KeySym.up, KeySym.kpUp: return .action(.skip(by: 60))
        case KeySym.down, KeySym.kpDown: return .action(.skip(by: -60))
        case KeySym.bracketleft: return .action(.setRate(slower(than: state.rate)))
        case KeySym.bracketright: return .action(.setRate(faster(than: state.rate)))
        case KeySym.backSpace: return .action(.resetRate)
        case KeySym.period: return .action(.frameStep(forward: true))
        case KeySym.comma: return .action(.frameStep(forward: false))
        case KeySym.less: return .action(.previous)
        case KeySym.greater: return .action(.next)
        case KeySym.char("s"): return .action(.captureFrame)
        case KeySym.char("q"), KeySym.char("Q"): return .action(.quit)
        case KeySym.f9: return .action(.togglePlaylist)
        case KeySym.char("a"), KeySym.char("A"): return .action(.cycleAspect)
        case KeySym.numbersign: return .action(.cycleAudioTrack)
        case KeySym.char("j"), KeySym.char("J"): return .action(.cycleSubtitleTrack)
        case KeySym.char("v"), KeySym.char("V"): return .action(.toggleSubtitles)
        case KeySym.end: return state.live != nil ? .action(.goLive) : nil
        // As mpv's input.conf: PGUP `add chapter 1`, PGDWN `add chapter -1` (without chapters,
        // nothing; never the focused control's own paging, such as the speed's).
        case KeySym.pageUp: return .action(.stepChapter(1))
        case KeySym.pageDown: return .action(.stepChapter(-1))
        case KeySym.question: return .shortcutsWindow
        default: return nil
        }
    }

    /// The volume after a step, clamped to 0…`max` (`volume-max`: 1.3, mpv's 130 %) and rounded
    /// to whole percent.
    public static func volume(_ v: Double, by delta: Double, max top: Double = PlayerViewState.defaultVolumeMax) -> Double {
        (min(top, max(0, v + delta)) * 100).rounded() / 100
    }

    public static func slower(than rate: Double) -> Double { rates.last { $0 < rate - 1e-9 } ?? rates[0] }
    public static func faster(than rate: Double) -> Double { rates.first { $0 > rate + 1e-9 } ?? rates[rates.count - 1] }

    /// What the shortcuts window lists, in order: keys, then what they do.
    public static let help: [(keys: String, meaning: String)] = [
        ("Space, p", tr("Play or pause")),
        ("← / →", tr("Back or forward 5 seconds")),
        ("Shift+← / Shift+→", tr("Back or forward 1 second")),
        ("↓ / ↑", tr("Back or forward 1 minute")),
        (", / .", tr("One frame back or forward")),
        ("[ / ]", tr("Slower or faster (0.5× to 2×)")),
        ("Backspace", tr("Normal speed")),
        ("9 / 0", tr("Volume down or up")),
        ("m", tr("Mute")),
        ("< / >", tr("Previous or next item")),
        ("End, the LIVE badge", tr("Go live (a live stream's edge)")),
        ("PgUp / PgDn", tr("Next or previous chapter")),
        ("l", tr("A-B loop: set A, set B, clear")),
        ("i / I", tr("Stats for 5 s / on or off")),
        ("Alt+arrows, Alt++ / Alt+-", tr("Pan, zoom the picture (Alt+Backspace: back)")),
        ("L", tr("Loop this item or not")),
        ("1 / 2, 3 / 4", tr("Contrast, brightness down or up")),
        ("5 / 6, 7 / 8", tr("Gamma, saturation down or up")),
        ("Ctrl+- / Ctrl++", tr("Audio 0.1 s earlier or later")),
        ("f, F11, double-click", tr("Fullscreen")),
        ("Esc", tr("Leave fullscreen")),
        ("F9", tr("Playlist")),
        ("a", tr("Aspect: fit, fill (crop), stretch")),
        ("#", tr("Next audio track")),
        ("j", tr("Next subtitle track (then none)")),
        ("v", tr("Show or hide subtitles")),
        ("F / G", tr("Smaller or larger subtitles")),
        ("z / Z", tr("Subtitles 0.1 s earlier or later")),
        ("r / R", tr("Subtitles up or down")),
        ("s", tr("Save the frame as a PNG")),
        ("Ctrl+s", tr("Save the window as a PNG")),
        ("Ctrl+o", tr("Open files")),
        ("Ctrl+Shift+o", tr("Open a folder")),
        ("Ctrl+l", tr("Open a URL")),
        ("?", tr("This list")),
        ("q", tr("Quit")),
    ]
}
