import CGStreamer
import CReelFrame
import Foundation
import ReelCore

/// What `reel check --renditions all` measures of a rendition besides its frames: a small luma
/// picture of the frame on screen (black and frozen video) and the loudest audio sample (silence).
extension Player {
    /// The frame on screen as `width`×`height` 8-bit luma, or nil when there is none.
    public func snapshotLuma(width: Int = 32, height: Int = 18) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: width * height)
        let ok = out.withUnsafeMutableBufferPointer { reel_frame_snapshot_luma(UnsafeMutableRawPointer(pipeline.element), $0.baseAddress, Int32(width), Int32(height)) }
        return ok != 0 ? out : nil
    }

    /// Starts measuring the loudest sample that reaches the audio sink; nil when it cannot be watched.
    public func startAudioMeter() -> AudioMeter? {
        guard let sink = pipeline.sink("audio-sink") else { return nil }
        defer { gst_object_unref(sink) }
        return reel_audio_meter_new(sink).map(AudioMeter.init)
    }
}

/// The loudest sample so far (`Player.startAudioMeter`); stops measuring when released.
public final class AudioMeter {
    private let meter: OpaquePointer

    init(_ meter: OpaquePointer) { self.meter = meter }

    /// 0…1 of full scale, and how many samples were measured.
    public var peak: (level: Double, samples: UInt64) {
        var samples: UInt64 = 0
        let level = reel_audio_meter_peak(meter, &samples)
        return (level, samples)
    }

    deinit { reel_audio_meter_free(meter) }
}
