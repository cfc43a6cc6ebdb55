import CGStreamer
import Foundation
import ReelCore
import ReelGLib

/// Frame captures for QA: at a position (accurate seek, paused) and "as soon as the frame is the
/// one asked for" (after any seek in flight). The video sink must keep its last sample (fakesink
/// needs `enable-last-sample=true`; display sinks keep it by default).
extension Player {
    /// Pauses, seeks accurately to `time` and captures that frame, spinning the GLib main loop
    /// until the seek lands (at most `timeout` seconds). The frame's own PTS is reported, so a
    /// caller can see exactly which frame it got. Must not be called from inside an observer.
    public func captureFrame(at time: Double, timeout: Double = 10) -> Result<CapturedFrame, PlaybackError> {
        guard currentURI != nil else { return .failure(PlaybackError(kind: .unknown, message: "Nothing is loaded.")) }
        if case .failed(let e) = status { return .failure(e) }
        if intent == .playing { pause() }
        seek(to: time, mode: .accurate)
        let landed = GLibMainLoop.run(until: { [unowned self] in
            if case .failed = status { return true }
            return isPrerolled && !isSeeking
        }, timeout: timeout)
        // With a seek already in flight (a redraw after a subtitle or aspect change), its
        // ASYNC_DONE can come while this seek's flush has just emptied the sink: a moment more
        // for the frame (an item whose video never decodes says so after that moment).
        if landed, mediaInfo.width != nil || mediaInfo.videoCodec != nil, displayedFrameTime == nil {
            _ = GLibMainLoop.run(until: { [unowned self] in
                if case .failed = status { return true }
                return displayedFrameTime != nil
            }, timeout: 1)
        }
        if case .failed(let e) = status { return .failure(e) }
        guard landed else {
            return .failure(PlaybackError(kind: .timeout, message: String(format: "The seek to %.3f s did not land within %.0f s.", time, timeout), uri: currentURI))
        }
        return captureNow()
    }

    /// Captures the frame on screen once the player is prerolled and no seek is in flight,
    /// driven by the main loop (no nested loop). Fails if the item fails or after `timeout`.
    public func captureFrameWhenSettled(timeout: Double = 10, _ completion: @escaping @MainActor (Result<CapturedFrame, PlaybackError>) -> Void) {
        let waiter = CaptureWaiter(completion: completion)
        if waiter.check(self) { return }
        waiter.observerID = addObserver { [weak self, waiter] _ in
            guard let self else { return }
            if waiter.check(self), let id = waiter.observerID { self.removeObserver(id) }
        }
        // The deadline: GLib timeout with the waiter as user_data (no captured context).
        let data = Unmanaged.passRetained(CaptureDeadline(player: self, waiter: waiter)).toOpaque()
        g_timeout_add_full(Int32(G_PRIORITY_DEFAULT), UInt32(timeout * 1000), { data in
            let d = Unmanaged<CaptureDeadline>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { d.fire() }
            return 0
        }, data, { data in Unmanaged<CaptureDeadline>.fromOpaque(data!).release() })
    }

    /// The frame on screen now, with its PTS.
    func captureNow() -> Result<CapturedFrame, PlaybackError> {
        guard let png = snapshotPNG() else {
            let reason = mediaInfo.width == nil && mediaInfo.videoCodec == nil ? "The item has no video." : "The video sink holds no frame yet."
            return .failure(PlaybackError(kind: .output, message: reason, uri: currentURI))
        }
        return .success(CapturedFrame(png: png, time: displayedFrameTime))
    }
}
