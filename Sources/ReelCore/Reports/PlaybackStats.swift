import Foundation

/// What mpv's stats overlay (`i`) shows, from the playback snapshot: the decoders (hardware or
/// not), the picture's size and frame rate, frames rendered and dropped, the bitrate, the buffer,
/// the rendition and throughput of an adaptive stream, and the A/V offset. The socket's `stats`
/// gives it as JSON; the window's stats panel as lines.
public struct PlaybackStats: Equatable, Sendable {
    public var videoCodec: String?, audioCodec: String?
    public var videoDecoder: String?, audioDecoder: String?
    public var hardware: Bool?
    public var width: Int?, height: Int?
    public var frameRate: Double?
    public var renderedFrames = 0, droppedFrames = 0
    /// bit/s: a pinned or playing rendition's bandwidth, else the file's size over its duration.
    public var bitrate: Int?
    /// Seconds buffered ahead (adaptive streams), and the demuxer's measured throughput (bit/s).
    public var buffered: Double?
    public var throughput: Int?
    /// The rendition playing (`720p`, its index) and whether Reel chooses it (auto) or the user.
    public var rendition: String?
    public var audioDelay = 0.0

    public init() {}

    public init(_ s: PlaybackSnapshot) {
        let m = s.mediaInfo
        videoCodec = m.videoCodec
        audioCodec = m.audioCodec
        videoDecoder = m.videoDecoder
        audioDecoder = m.audioDecoder
        hardware = m.hardwareDecoding
        width = m.width
        height = m.height
        frameRate = s.videoFrameRate
        renderedFrames = s.qoe.renderedFrames
        droppedFrames = s.qoe.droppedFrames
        if let index = s.pinnedRendition, s.renditions.indices.contains(index) {
            let r = s.renditions[index]
            bitrate = r.bandwidth
            rendition = "\(r.resolution.map { "\($0.height)p" } ?? "#\(index)") (\(s.quality.isManual ? "manual" : "auto"))"
        } else {
            bitrate = s.fileBitrate
        }
        buffered = s.adaptive?.buffered
        throughput = s.adaptive?.throughput
        audioDelay = s.audioDelay
    }

    public var json: JSONValue {
        .object([("videoCodec", .optional(videoCodec)), ("audioCodec", .optional(audioCodec)), ("videoDecoder", .optional(videoDecoder)),
                 ("audioDecoder", .optional(audioDecoder)), ("hardware", .optional(hardware)), ("width", .optional(width)), ("height", .optional(height)),
                 ("frameRate", .optional(frameRate.map { ($0 * 1000).rounded() / 1000 })), ("renderedFrames", .int(renderedFrames)),
                 ("droppedFrames", .int(droppedFrames)), ("bitrate", .optional(bitrate)), ("buffered", .optional(buffered.map { ($0 * 10).rounded() / 10 })),
                 ("throughput", .optional(throughput)), ("rendition", .optional(rendition)), ("audioDelay", .double(audioDelay))])
    }

    /// The panel's lines, as mpv's first stats page orders them.
    public var lines: [String] {
        var lines: [String] = []
        let decoder = [videoDecoder, hardware == true ? tr("hardware") : (videoDecoder != nil ? tr("software") : nil)].compactMap { $0 }.joined(separator: ", ")
        lines.append(String(format: tr("Video: %@"), (videoCodec ?? tr("none")) + (decoder.isEmpty ? "" : " (\(decoder))")))
        if let width, let height {
            lines.append(String(format: tr("Size: %d×%d"), width, height) + (frameRate.map { String(format: tr(" at %.3g fps"), $0) } ?? ""))
        }
        lines.append(String(format: tr("Frames: %d rendered, %d dropped"), renderedFrames, droppedFrames))
        lines.append(String(format: tr("Audio: %@"), (audioCodec ?? tr("none")) + (audioDecoder.map { " (\($0))" } ?? ""))
                     + (audioDelay != 0 ? String(format: tr(", delay %+.2f s"), audioDelay) : ""))
        if let bitrate { lines.append(String(format: tr("Bitrate: %@"), Self.rate(bitrate))) }
        if let rendition { lines.append(String(format: tr("Rendition: %@"), rendition)) }
        if let buffered { lines.append(String(format: tr("Buffer: %.1f s ahead"), buffered) + (throughput.map { String(format: tr(", throughput %@"), Self.rate($0)) } ?? "")) }
        return lines
    }

    static func rate(_ bits: Int) -> String {
        bits >= 1_000_000 ? String(format: "%.2f Mbit/s", Double(bits) / 1e6) : String(format: "%.0f kbit/s", Double(bits) / 1e3)
    }
}
