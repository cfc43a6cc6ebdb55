import ReelCore
import XCTest

/// The rank decision for hardware video decoders, by table: which are raised, to what, and
/// what is never touched.
final class HardwareDecoderRankingTests: XCTestCase {
    private typealias D = HardwareDecoderRanking.Decoder
    // A Debian 12 desktop with an Intel GPU and gst-libav, as GStreamer 1.22 ranks them.
    private let registry = [
        D(name: "avdec_h264", klass: "Codec/Decoder/Video", rank: 256),
        D(name: "avdec_h265", klass: "Codec/Decoder/Video", rank: 256),
        D(name: "dav1ddec", klass: "Codec/Decoder/Video", rank: 257),
        D(name: "openh264dec", klass: "Codec/Decoder/Video", rank: 64),
        D(name: "vah264dec", klass: "Codec/Decoder/Video/Hardware", rank: 0),
        D(name: "vah265dec", klass: "Codec/Decoder/Video/Hardware", rank: 0),
        D(name: "nvh264dec", klass: "Codec/Decoder/Video/Hardware", rank: 256),
        D(name: "v4l2slh264dec", klass: "Codec/Decoder/Video/Hardware", rank: 0),
    ]

    func testHardwareIsWhatTheKlassSays() {
        XCTAssertTrue(D.isHardware(klass: "Codec/Decoder/Video/Hardware"))
        XCTAssertFalse(D.isHardware(klass: "Codec/Decoder/Video"))
        XCTAssertFalse(D.isHardware(klass: "Codec/Encoder/Video/Hardware"), "an encoder is not a decoder")
        XCTAssertFalse(D.isHardware(klass: "Codec/Decoder/Audio/Hardware"), "audio is left alone")
        XCTAssertFalse(D.isHardware(klass: "Codec/Decoder/Video/HardwareAccelerated"), "whole words only")
    }

    func testAutoRaisesThoseThatOpenJustAboveTheHighestSoftwareDecoder() {
        let opens: Set = ["vah264dec", "vah265dec"]
        let ranks = HardwareDecoderRanking.ranks(mode: .auto, decoders: registry, userRanked: [], opens: { opens.contains($0) })
        XCTAssertEqual(ranks, ["vah264dec": 258, "vah265dec": 258, "nvh264dec": 256, "v4l2slh264dec": 0],
                       "dav1ddec's 257 is the highest software rank; a decoder without its device keeps GStreamer's rank")
    }

    func testNoGivesGStreamersRanksBack() {
        let ranks = HardwareDecoderRanking.ranks(mode: .no, decoders: registry, userRanked: [], opens: { _ in true })
        XCTAssertEqual(ranks, ["vah264dec": 0, "vah265dec": 0, "nvh264dec": 256, "v4l2slh264dec": 0])
    }

    func testTheUsersRanksWin() {
        XCTAssertEqual(HardwareDecoderRanking.userRanked("vah264dec:NONE, nvh264dec:512,,avdec_h264"), ["vah264dec", "nvh264dec", "avdec_h264"])
        XCTAssertEqual(HardwareDecoderRanking.userRanked(nil), [])
        let ranks = HardwareDecoderRanking.ranks(mode: .auto, decoders: registry, userRanked: ["vah264dec"], opens: { _ in true })
        XCTAssertNil(ranks["vah264dec"], "never set")
        XCTAssertEqual(ranks["vah265dec"], 258)
    }

    func testWithoutSoftwareDecodersTheFloorIsPrimary() {
        let only = [D(name: "vah264dec", klass: "Codec/Decoder/Video/Hardware", rank: 0)]
        XCTAssertEqual(HardwareDecoderRanking.ranks(mode: .auto, decoders: only, userRanked: [], opens: { _ in true }), ["vah264dec": 257])
        let high = [D(name: "x", klass: "Codec/Decoder/Video/Hardware", rank: 512)]
        XCTAssertEqual(HardwareDecoderRanking.ranks(mode: .auto, decoders: high, userRanked: [], opens: { _ in true }), ["x": 512], "never lowered")
    }

    func testTheArgument() {
        XCTAssertEqual(HardwareDecodingMode(argument: "auto"), .auto)
        XCTAssertEqual(HardwareDecodingMode(argument: "NO"), .no)
        XCTAssertEqual(HardwareDecodingMode(argument: "off"), .no)
        XCTAssertNil(HardwareDecodingMode(argument: "vaapi"))
    }
}
