import CGStreamer
import CReelFrame
import Foundation
import ReelCore

/// Exact frames during playback (`--screenshot-at`): the frame on screen at T is the last one
/// whose timestamp is ≤ T, caught as it passes the video sink (CReelFrame's catcher, a probe in
/// the streaming thread), not whatever the sink holds when a timer notices that T has passed.
/// The same command therefore writes the same frames, with the same names, on every run.
@MainActor
final class FrameCatcher {
    /// The C catcher, and the sink it watches (pointer identity).
    private var catcher: OpaquePointer?
    private var sink: UInt = 0

    /// Catches the frames at `times` on `sink` from now on (a new sink gets a new catcher); false
    /// when it cannot be watched.
    func catchFrames(at times: [Double], on sink: UnsafeMutablePointer<GstElement>) -> Bool {
        if catcher == nil || self.sink != UInt(bitPattern: sink) {
            release()
            catcher = reel_frame_catcher_new(sink)
            self.sink = UInt(bitPattern: sink)
        }
        guard let catcher else { return false }
        let targets = times.filter { $0.isFinite && $0 >= 0 }.sorted().map { UInt64(($0 * 1e9).rounded()) }
        targets.withUnsafeBufferPointer { reel_frame_catcher_set_targets(catcher, $0.baseAddress, $0.count) }
        return true
    }

    /// The frames caught since the last call (PNGs at `displaySize`), each with its target.
    func take(displaySize: (Int, Int)?, uri: String?) -> [(target: Double, frame: Result<CapturedFrame, PlaybackError>)] {
        guard let catcher else { return [] }
        let (width, height) = displaySize ?? (0, 0)
        var found: [(Double, Result<CapturedFrame, PlaybackError>)] = []
        while true {
            var target: UInt64 = 0, pts: UInt64 = 0, size = 0, taken: Int32 = 0
            var error: UnsafeMutablePointer<CChar>?
            let bytes = reel_frame_catcher_take_png(catcher, Int32(width), Int32(height), &target, &pts, &size, &error, &taken)
            guard taken != 0 else { break }
            let at = Double(target) / 1e9
            if let bytes {
                found.append((at, .success(CapturedFrame(png: Data(bytes: bytes, count: size), time: reel_gst_clock_time_is_valid(UInt(pts)) != 0 ? Double(pts) / 1e9 : nil))))
                reel_frame_free(bytes)
            } else {
                let message = error.map { String(cString: $0) } ?? "the frame could not be converted"
                found.append((at, .failure(PlaybackError(kind: .output, message: "The frame at \(at) s: \(message)", uri: uri))))
            }
            if let error { reel_frame_free(error) }
        }
        return found
    }

    func release() {
        if let catcher { reel_frame_catcher_free(catcher) }
        catcher = nil
        sink = 0
    }
}

extension Player {
    /// From now on, catches the frames on screen at `times` (seconds of the current item); the
    /// targets of an earlier call are forgotten. False when the video sink cannot be watched.
    @discardableResult
    public func catchFrames(at times: [Double]) -> Bool {
        guard let sink = reel_get_object(pipeline.element, "video-sink") else { return false }
        defer { gst_object_unref(sink) }
        return frameCatcher.catchFrames(at: times, on: reel_gst_element(sink))
    }

    /// The frames caught since the last call, each with the target it was caught for.
    public func takeCaughtFrames() -> [(target: Double, frame: Result<CapturedFrame, PlaybackError>)] {
        frameCatcher.take(displaySize: captureSize, uri: currentURI)
    }

    func releaseFrameCatcher() { frameCatcher.release() }
}
