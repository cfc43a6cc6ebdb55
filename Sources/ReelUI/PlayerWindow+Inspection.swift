import CGtk
import Foundation
import ReelCore

/// What the window shows and does, read and driven from outside: the app's window capture, the
/// tests and QA tools (menus, banners, dialogs, simulated pointer and drops).
extension PlayerWindow {
    // MARK: Capture and inspection (the app's "window capture", tests, QA)

    /// How many chapter marks the seek bar draws (chapters a few pixels apart share one).
    public var chapterMarkCount: Int { controls.seekRow.drawnMarks }

    /// Writes the window as it is on screen, video included, to a PNG file.
    /// - Parameters:
    ///   - composed: draw the window from its widget tree rather than read it back (Wayland: a
    ///     client cannot read its window's pixels, nor the video's subsurface); on X11 the
    ///     window's pixels are read, video included.
    ///   - videoFrame: with `composed`, the frame on screen (PNG) drawn into the video area; nil
    ///     when no sink draws there (the area is black on screen too).
    public func capturePNG(to path: String, composed: Bool = false, videoFrame: Data? = nil) throws {
        UIRuntime.settle()
        var error: UnsafeMutablePointer<GError>?
        let captured: gboolean
        if composed {
            let r = videoRectangle ?? (x: 0, y: 0, width: 0, height: 0)
            let frame = videoFrame ?? Data()
            captured = frame.withUnsafeBytes { bytes in
                reel_capture_widget_png_with_frame(window, path, bytes.bindMemory(to: UInt8.self).baseAddress, gsize(bytes.count),
                                                   Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height), &error)
            }
        } else {
            captured = reel_capture_window_png(window, path, &error)
        }
        if captured == 0 {
            let text = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            throw PlaybackError(kind: .output, message: "The window could not be captured: \(text)")
        }
    }

    /// The elapsed and total time labels as shown.
    public var timeTexts: (elapsed: String, total: String) { controls.timeTexts }
    /// The metered-network policy checked in the video menu.
    public var menuMeteredPolicy: MeteredPolicy? { videoMenu.checkedPolicy }

    /// Chooses a metered-network policy in the video menu (as a click on its item does).
    public func chooseMeteredPolicy(_ policy: MeteredPolicy) { videoMenu.choose(policy) }
    /// Whether the video menu's "Hardware decoding" is checked; toggling it as a click does.
    public var menuHardwareDecoding: Bool { videoMenu.hardwareDecodingChecked }
    public func toggleHardwareDecoding() { videoMenu.toggleHardwareDecoding() }

    /// The titles in the video menu's "Open recent", newest first.
    public var recentMenuTitles: [String] { videoMenu.recentTitles }

    /// Opens the recent entry at `index` as a click on it does.
    public func chooseRecent(at index: Int) { videoMenu.chooseRecent(at: index) }

    /// The control bar's quality menu: shown (adaptive streams), its button's text, its entries.
    public var qualityMenuShown: Bool { controls.quality.isVisible }
    /// The LIVE badge's text ("LIVE", "−0:25"), nil when hidden (not a live item).
    public var liveBadgeText: String? { controls.liveBadgeText }
    /// Where the seek bar's knob is, 0…1 of its range.
    public var seekFraction: Double { controls.seekFraction }
    public var liveBadgeRect: (x: Int, y: Int, width: Int, height: Int) { rect(of: controls.liveBadgeWidget) }
    public var qualityButtonText: String { controls.quality.buttonText }
    public var qualityEntryLabels: [String] { controls.quality.entryLabels }
    /// Opens or closes the quality popover, chooses an entry (as clicks do).
    public func setQualityMenuOpen(_ open: Bool) { controls.quality.setOpen(open) }
    public func chooseQuality(_ choice: String) { controls.quality.choose(choice) }
    /// The tracks menu: shown (more than one audio track, or subtitles), its text and entries;
    /// choosing an entry ("audio:<id>", "subtitle:<id>", "subtitle:" for none) as a click does.
    public var tracksMenuShown: Bool { controls.tracks.isVisible }
    public var tracksButtonText: String { controls.tracks.buttonText }
    public var trackEntryLabels: [String] { controls.tracks.entryLabels }
    public func setTracksMenuOpen(_ open: Bool) { controls.tracks.setOpen(open) }
    public func chooseTrack(_ choice: String) { controls.tracks.choose(choice) }

    /// Whether the banner's "Play anyway" button is shown.
    public var offersPlayAnyway: Bool { banner.offersPlayAnyway }

    /// Presses the banner's "Play anyway" button (as a click does).
    public func pressPlayAnyway() { banner.pressPlayAnyway() }

    /// The resume notice's text when it is shown ("Resumed at 0:04").
    public var resumeNoticeText: String? { resumeNotice.text }

    /// Presses the resume notice's "Start over" (as a click does).
    public func pressStartOver() { resumeNotice.pressStartOver() }

    /// The banner's text when it is shown.
    public var bannerText: String? { banner.text }
    public var isSpinnerActive: Bool { controls.isSpinning }
    public var isPlaylistShown: Bool { gtk_widget_get_visible(playlist.root) != 0 }
    public var isShortcutsWindowOpen: Bool { userKeys.isShortcutsOpen }
    /// Which dialog is open: "open-files", "open-url" or nil.
    public var openDialog: String? { dialogs.openKind }
    /// The window's title as set.
    public var title: String { String(cString: gtk_window_get_title(reel_gtk_window(window))) }
    /// Answers the open dialog as a user would (tests): the URL text, or file paths.
    public func answerDialog(text: String? = nil, files: [String] = [], accept: Bool = true) {
        dialogs.answer(text: text, files: files, accept: accept)
    }
    /// Synthetic pointer input put through GTK's own event path (tests; see the shim for why):
    /// a motion over the video area.
    public func sendPointerMotionOverVideo(x: Double, y: Double) {
        reel_widget_send_pointer(video, GDK_MOTION_NOTIFY, x, y, 0, 0)
    }

    /// Synthetic pointer input on the seek bar at `fraction` of its width (tests): a press,
    /// a motion with the first button held (a drag) or a release.
    public enum SeekBarPointer { case press, drag, release }
    public func sendPointerToSeekBar(_ kind: SeekBarPointer, at fraction: Double) {
        let r = seekBarRect
        let x = Double(r.width) * fraction, y = Double(r.height) / 2
        switch kind {
        case .press: reel_widget_send_pointer_input(controls.seekWidget, GDK_BUTTON_PRESS, x, y, 1, 0)
        case .drag: reel_widget_send_pointer_input(controls.seekWidget, GDK_MOTION_NOTIFY, x, y, 0, reel_button1_mask())
        case .release: reel_widget_send_pointer_input(controls.seekWidget, GDK_BUTTON_RELEASE, x, y, 1, reel_button1_mask())
        }
    }

    /// Delivers `text` to the window as a drop of `target` ("text/uri-list" or
    /// "text/plain;charset=utf-8"), through GTK's own selection data (tests; see the shim).
    @discardableResult
    public func simulateDrop(_ text: String, target: String = "text/uri-list") -> Bool {
        reel_widget_simulate_drop(window, target, text) != 0
    }

    /// The drop targets the window takes, by name ("text/uri-list", the text targets, and the
    /// document portal's when `acceptDrops(documentPortal: true)` found it).
    public var dropTargets: [String] {
        guard let names = reel_widget_drop_targets(window) else { return [] }
        defer { g_free(names) }
        return String(cString: names).split(separator: "\n").map(String.init)
    }

    /// Selects a playlist row (as a click would).
    public func selectPlaylistRow(_ index: Int) { playlist.select(index) }
}
