import CGStreamer
import Foundation
import ReelCore
@_spi(Testing) import ReelEngine
import ReelTestSupport
import XCTest

/// `--hwdec` on a machine without a GPU (this one, and CI): `auto` plays on the software
/// decoders without a word, `media-info` names them; and the fall back from a hardware decoder
/// that fails, shown with Reel's stand-in (Resources/test-elements/reelstandinhwdec.c: klass
/// "Codec/Decoder/Video/Hardware", rank none as GStreamer 1.22 gives the VA decoders, fails on its
/// first frame), loaded into this process's registry.
final class HardwareDecodingTests: XCTestCase {
    override func setUp() { TestMedia.ensureGenerated() }

    override func tearDown() {
        // Later tests in this process must not meet the stand-in: no device, rank none again.
        setenv(StandInHardwareDecoder.noDeviceVariable, "1", 1)
        Player.forgetHardwareDecoderProbes()
        reel_set_factory_rank(StandInHardwareDecoder.factoryName, 0)
    }

    /// The stand-in in this process's registry, with a device (or not).
    private func loadStandIn(device: Bool) throws {
        GStreamerRuntime.ensureInitialised()
        let path = try StandInHardwareDecoder.pluginPath()
        if reel_factory_rank(StandInHardwareDecoder.factoryName) < 0 {
            var error: UnsafeMutablePointer<GError>?
            let plugin = gst_plugin_load_file(path, &error)
            XCTAssertNotNil(plugin, error.map { String(cString: $0.pointee.message) } ?? "")
            if let plugin { gst_object_unref(UnsafeMutableRawPointer(plugin)) }
        }
        XCTAssertEqual(reel_factory_rank(StandInHardwareDecoder.factoryName), 0, "registered with rank none")
        if device { unsetenv(StandInHardwareDecoder.noDeviceVariable) } else { setenv(StandInHardwareDecoder.noDeviceVariable, "1", 1) }
        Player.forgetHardwareDecoderProbes()
    }

    /// How many frames the stand-in was given (its global counter).
    private func standInFrames() throws -> Int32 {
        let handle = try XCTUnwrap(dlopen(try StandInHardwareDecoder.pluginPath(), RTLD_NOW | RTLD_NOLOAD))
        defer { dlclose(handle) }
        let symbol = try XCTUnwrap(dlsym(handle, "reel_standin_frames"))
        return symbol.assumingMemoryBound(to: Int32.self).pointee
    }

    func testAutoWithoutAHardwareDecoderPlaysInSoftwareAndSaysWhichDecoders() throws {
        try onMain {
            let h = try EngineHarness(sync: false)
            defer { h.shutdown() }
            XCTAssertEqual(h.player.hardwareDecoding, .auto, "auto is the default")
            h.player.load(TestMedia.path("clip2s.mp4"))
            h.player.play()
            h.wait("end", timeout: 20) { h.ended == 1 }
            XCTAssertEqual(h.errors, [])
            XCTAssertEqual(h.warnings, [], "no GPU: nothing to say")
            let infos = h.events.compactMap { if case .mediaInfo(let m) = $0.event { m } else { nil } }
            let info = try XCTUnwrap(infos.last)
            XCTAssertEqual(info.videoDecoder, "avdec_h264")
            XCTAssertEqual(info.hardwareDecoding, false)
            XCTAssertNotNil(info.audioDecoder, "the clip has audio: \(info)")
            XCTAssertEqual(h.player.videoFrameCounts.rendered, 60, "the sink's statistics: every frame of the 2 s clip")
            XCTAssertEqual(h.player.videoFrameCounts.dropped, 0)
        }
    }

    func testAFailingHardwareDecoderFallsBackToSoftwareAndTheItemPlaysToItsEnd() throws {
        try loadStandIn(device: true)
        let before = try standInFrames()
        try onMain {
            let h = try EngineHarness(sync: true)
            defer { h.shutdown() }
            h.player.load(TestMedia.path("color10s.mp4"))
            h.player.play()
            h.wait("end", timeout: 40) { h.ended == 1 || !h.errors.isEmpty }
            XCTAssertEqual(h.errors, [], "never an item error")
            XCTAssertEqual(h.warnings.map(\.kind), [.hwdecFallback], "\(h.warnings)")
            XCTAssertEqual(h.warnings.first?.code, "hwdec-fallback")
            XCTAssertTrue(h.warnings.first?.message.contains(StandInHardwareDecoder.factoryName) == true, h.warnings.first?.message ?? "")
            XCTAssertEqual(h.ended, 1)
            let last = try XCTUnwrap(h.progress().last?.position)
            XCTAssertGreaterThan(last, 9, "played to its end on the software decoder")
            XCTAssertEqual(h.player.mediaInfo.videoDecoder, "avdec_h264")
            XCTAssertEqual(h.player.mediaInfo.hardwareDecoding, false)
        }
        XCTAssertGreaterThan(try standInFrames(), before, "auto put the stand-in (rank none) ahead of avdec_h264, and decodebin3 tried it")
    }

    func testTheFallBackKeepsAStartPosition() throws {
        try loadStandIn(device: true)
        try onMain {
            let h = try EngineHarness(sync: true)
            defer { h.shutdown() }
            h.player.load(TestMedia.path("color10s.mp4"))
            h.player.seek(to: 6)  // before the first frame: where the item starts
            h.player.play()
            h.wait("the fall back, then playing", timeout: 30) { !h.warnings.isEmpty && h.player.position > 6.3 }
            XCTAssertEqual(h.warnings.map(\.kind), [.hwdecFallback])
            let first = try XCTUnwrap(h.progress().first { $0.position > 0.01 }?.position)
            XCTAssertGreaterThanOrEqual(first, 5.5, "it goes on from the start position, not from 0: \(h.progress().prefix(5).map(\.position))")
        }
    }

    func testNoLeavesTheRanksAsGStreamerHasThem() throws {
        try loadStandIn(device: true)
        let before = try standInFrames()
        try playsInSoftwareWithoutAWord(mode: .no)
        XCTAssertEqual(try standInFrames(), before, "the stand-in was never given a frame")
    }

    func testAHardwareDecoderThatCannotOpenItsDeviceIsLeftWhereItWas() throws {
        try loadStandIn(device: false)
        try playsInSoftwareWithoutAWord(mode: .auto)  // no device: not raised, not tried
    }

    /// clip2s.mp4 plays to its end on avdec_h264, no warning, the stand-in's rank left at none.
    private func playsInSoftwareWithoutAWord(mode: HardwareDecodingMode, file: StaticString = #filePath, line: UInt = #line) throws {
        try onMain {
            let h = try EngineHarness(sync: false, hardwareDecoding: mode)
            defer { h.shutdown() }
            h.player.load(TestMedia.path("clip2s.mp4"))
            h.player.play()
            h.wait("end", timeout: 20) { h.ended == 1 }
            XCTAssertEqual(h.warnings, [], file: file, line: line)
            XCTAssertEqual(h.player.mediaInfo.videoDecoder, "avdec_h264", file: file, line: line)
            XCTAssertEqual(reel_factory_rank(StandInHardwareDecoder.factoryName), 0, file: file, line: line)
        }
    }

    func testTheModeChangesFromTheNextItem() throws {
        try loadStandIn(device: true)
        try onMain {
            let h = try EngineHarness(sync: false, hardwareDecoding: .no)
            defer { h.shutdown() }
            h.player.load(TestMedia.path("clip2s.mp4"))
            h.player.play()
            h.wait("end", timeout: 20) { h.ended == 1 }
            XCTAssertEqual(h.warnings, [])
            h.player.hardwareDecoding = .auto
            h.player.load(TestMedia.path("clip2s.mp4"))
            h.player.play()
            h.wait("the second end", timeout: 30) { h.ended == 2 || !h.errors.isEmpty }
            XCTAssertEqual(h.warnings.map(\.kind), [.hwdecFallback], "auto from the next item: the stand-in is tried, and falls back")
            XCTAssertEqual(h.errors, [])
        }
    }
}
