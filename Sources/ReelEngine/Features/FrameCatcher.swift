import CGStreamer
import CReelFrame
import Foundation
import ReelCore

/// Exact frames during playback (`--screenshot-at`): the frame on screen at T is the last one
/// whose timestamp is ≤ T, caught as it leaves the video filter (the picture as shown, before
/// playsink scales it to a window: a window's capture used to be the window-sized picture scaled
/// back up) or, without a filter, as it reaches the video sink (CReelFrame's catcher, a probe in
/// the streaming thread), not whatever the sink holds when a timer notices that T has passed.
/// The same command therefore writes the same frames, with the same names, on every run.
///
/// A feature: it owns its C catcher (a probe on the element watched) and follows the pipeline's
/// life through hooks. A new pipeline retires the catcher (its elements are new, and one may be
/// allocated where an old one was: the element's address alone cannot tell); what it caught
/// before is still given by the next `take`. Shutdown frees them.
@MainActor
final class FrameCatcher: PlayerFeature {
    /// The C catcher, and the element it watches (pointer identity, within one pipeline).
    private var catcher: OpaquePointer?
    private var sink: UInt = 0
    /// The catcher has targets (`catchFrames`), not only the shown frame kept (`keepShownFrame`).
    private var catching = false
    /// Catchers of earlier pipelines (or elements) that had targets, until what they caught is
    /// taken (the last few: a caller that never takes does not keep them all).
    private var retired: [OpaquePointer] = []

    func pipelineBuilt(host: FeatureHost) { retire() }

    /// Puts the catcher aside: kept for `take` when it had targets, freed otherwise.
    private func retire() {
        if let catcher {
            if catching { retired.append(catcher) } else { reel_frame_catcher_free(catcher) }
        }
        while retired.count > 4 { reel_frame_catcher_free(retired.removeFirst()) }
        catcher = nil
        catching = false
        sink = 0
    }

    func shutdown(host: FeatureHost) { release() }

    /// Catches the frames at `times` on `sink` from now on (a new sink gets a new catcher); false
    /// when it cannot be watched.
    func catchFrames(at times: [Double], on sink: UnsafeMutablePointer<GstElement>, pad: String = "sink") -> Bool {
        attach(to: sink, pad: pad)
        guard let catcher else { return false }
        let targets = times.filter { $0.isFinite && $0 >= 0 }.sorted().map { UInt64(($0 * 1e9).rounded()) }
        targets.withUnsafeBufferPointer { reel_frame_catcher_set_targets(catcher, $0.baseAddress, $0.count) }
        catching = true
        return true
    }

    /// A catcher on `element`'s `pad` (the one in place when it is the same element).
    private func attach(to element: UnsafeMutablePointer<GstElement>, pad: String) {
        guard catcher == nil || sink != UInt(bitPattern: element) else { return }
        retire()  // what it caught is still taken
        catcher = reel_frame_catcher_new_on(element, pad)
        sink = UInt(bitPattern: element)
    }

    /// The frames caught since the last call (PNGs at `displaySize`), each with its target.
    func take(displaySize: (Int, Int)?, uri: String?) -> [(target: Double, frame: Result<CapturedFrame, PlaybackError>)] {
        let earlier = retired.flatMap { take(from: $0, displaySize: displaySize, uri: uri) }
        retired.forEach { reel_frame_catcher_free($0) }
        retired.removeAll()
        return earlier + (catcher.map { take(from: $0, displaySize: displaySize, uri: uri) } ?? [])
    }

    private func take(from catcher: OpaquePointer, displaySize: (Int, Int)?, uri: String?) -> [(target: Double, frame: Result<CapturedFrame, PlaybackError>)] {
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

    /// Keeps the last frame that passes `sink` (a new sink gets a new catcher); false when it
    /// cannot be watched.
    func keepShownFrame(on sink: UnsafeMutablePointer<GstElement>, pad: String = "sink") -> Bool {
        attach(to: sink, pad: pad)
        guard let catcher else { return false }
        reel_frame_catcher_keep_last(catcher, 1)
        return true
    }

    /// The kept frame whose PTS is `pts` (the latest at or before it), as `take` encodes caught frames.
    func frame(at pts: UInt64, displaySize: (Int, Int)?) -> CapturedFrame? {
        guard let catcher else { return nil }
        let (width, height) = displaySize ?? (0, 0)
        var found: UInt64 = 0, size = 0
        var error: UnsafeMutablePointer<CChar>?
        let bytes = reel_frame_catcher_frame_at_png(catcher, pts, Int32(width), Int32(height), &found, &size, &error)
        if let error { reel_frame_free(error) }
        guard let bytes else { return nil }
        defer { reel_frame_free(bytes) }
        return CapturedFrame(png: Data(bytes: bytes, count: size), time: reel_gst_clock_time_is_valid(UInt(found)) != 0 ? Double(found) / 1e9 : nil)
    }

    func release() {
        if let catcher { reel_frame_catcher_free(catcher) }
        retired.forEach { reel_frame_catcher_free($0) }
        retired.removeAll()
        catcher = nil
        catching = false
        sink = 0
    }
}

extension Player {
    private var frameCatcher: FrameCatcher? { features.first(FrameCatcher.self) }

    /// From now on, catches the frames on screen at `times` (seconds of the current item); the
    /// targets of an earlier call are forgotten. False when the video sink cannot be watched.
    @discardableResult
    public func catchFrames(at times: [Double]) -> Bool {
        guard let frameCatcher else { return false }
        if let filter = videoFilter { return frameCatcher.catchFrames(at: times, on: filter.pictureOutput.element, pad: filter.pictureOutput.pad) }
        guard let sink = pipeline.sink("video-sink") else { return false }
        defer { gst_object_unref(sink) }
        return frameCatcher.catchFrames(at: times, on: reel_gst_element(sink))
    }

    /// The frames caught since the last call, each with the target it was caught for.
    public func takeCaughtFrames() -> [(target: Double, frame: Result<CapturedFrame, PlaybackError>)] {
        frameCatcher?.take(displaySize: captureSize, uri: currentURI) ?? []
    }

    /// From now on the frame on screen is kept as it passes the video sink (`shownFrame`), so that
    /// it is captured exactly as `--screenshot-at` captures (`reel review`'s marks). Call again
    /// for a new item (the sink may be new).
    @discardableResult
    public func keepShownFrame() -> Bool {
        guard let frameCatcher else { return false }
        if let filter = videoFilter { return frameCatcher.keepShownFrame(on: filter.pictureOutput.element, pad: filter.pictureOutput.pad) }
        guard let sink = pipeline.sink("video-sink") else { return false }
        defer { gst_object_unref(sink) }
        return frameCatcher.keepShownFrame(on: reel_gst_element(sink))
    }

    /// The frame on screen (the one the sink holds, by its PTS) as `--screenshot-at` writes it
    /// (unscaled, from the copies kept as frames left the video filter), with its PTS; nil before
    /// `keepShownFrame` or when it is not among the frames kept.
    public func shownFrame() -> CapturedFrame? {
        let pts = reel_sample_pts(pipeline.element)
        guard reel_gst_clock_time_is_valid(pts) != 0 else { return nil }
        return frameCatcher?.frame(at: UInt64(pts), displaySize: captureSize)
    }
}
