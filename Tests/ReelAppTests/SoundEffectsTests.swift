import Foundation
import ReelTestSupport
import XCTest

/// Issue 61: the sound's effects measured on the audio sink's samples (a filesink after a fixed
/// stereo S16 format), on media ffmpeg makes: a 5.1 file with a tone in the centre channel only
/// is louder on stereo with the dialogue boost; ReplayGain tags change the level by their value
/// (track and album); night mode narrows a loud/quiet pair; an equalizer band cut lowers a tone
/// in it. Off (the default), no effect is in the pipeline at all.
final class SoundEffectsTests: XCTestCase {
    nonisolated(unsafe) private static var dir: URL!

    override class func setUp() {
        super.setUp()
        dir = TestMedia.temporaryDirectory("reel-sound")
        let tone = "sine=frequency=440:duration=3:sample_rate=48000"
        let made: [(String, [String])] = [
            ("centre51.flac", ["-f", "lavfi", "-i", tone, "-filter_complex", "[0:a]pan=5.1|FC=c0[a]", "-map", "[a]"]),
            ("tagged.flac", ["-f", "lavfi", "-i", tone, "-metadata", "REPLAYGAIN_TRACK_GAIN=-6.00 dB", "-metadata", "REPLAYGAIN_ALBUM_GAIN=-12.00 dB"]),
            ("loud.flac", ["-f", "lavfi", "-i", tone, "-af", "volume=6.4"]),
            ("quiet.flac", ["-f", "lavfi", "-i", tone, "-af", "volume=0.4"]),
            ("k1.flac", ["-f", "lavfi", "-i", "sine=frequency=947:duration=3:sample_rate=48000"]),
        ]
        for (name, arguments) in made {
            let r = ProcessRunner.run("/usr/bin/ffmpeg", ["-nostdin", "-loglevel", "error", "-y"] + arguments + ["-c:a", "flac", dir.appendingPathComponent(name).path], timeout: 60)
            precondition(r.status == 0, "ffmpeg made \(name): \(r.stderr)")
        }
    }

    override class func tearDown() {
        try? FileManager.default.removeItem(at: dir)
        super.tearDown()
    }

    /// The level (RMS, dBFS) of what reached the audio sink, playing `file` with `options`; and stderr.
    private func level(_ file: String, _ options: [String] = [], environment: [String: String] = [:]) throws -> (dB: Double, stderr: String) {
        let out = Self.dir.appendingPathComponent("out-\(UUID().uuidString).raw")
        defer { try? FileManager.default.removeItem(at: out) }
        let run = ProcessRunner.run(ProcessRunner.reelExecutable,
                                    ["--headless", "--exit-at-end", "--no-resume", "--no-config",
                                     "--audio-sink", "audioconvert ! audio/x-raw,format=S16LE,channels=2,rate=48000 ! filesink location=\(out.path)"]
                                    + options + [Self.dir.appendingPathComponent(file).path], timeout: 60, environment: environment)
        XCTAssertEqual(run.status, 0, "\(file) \(options): \(run.stderr)")
        let data = try Data(contentsOf: out)
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        XCTAssertGreaterThan(samples.count, 48_000 * 2 * 2, "\(file) \(options): the whole tone reached the sink")
        let middle = samples[(samples.count / 4)..<(samples.count * 3 / 4)]  // past any start and end
        let power = middle.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, middle.count))
        return (10 * log10(max(power, 1e-9) / (32768.0 * 32768.0)), run.stderr)
    }

    func testTheDialogueBoostRaisesACentreOnlyToneOnStereo() throws {
        let plain = try level("centre51.flac").dB
        let boosted = try level("centre51.flac", ["--dialogue-boost"]).dB
        XCTAssertGreaterThan(boosted - plain, 5, "the centre rises about 6 dB over audioconvert's own downmix (\(plain) → \(boosted) dBFS)")
        // A stereo file is not changed by it.
        XCTAssertEqual(try level("k1.flac", ["--dialogue-boost"]).dB, try level("k1.flac").dB, accuracy: 0.2)
    }

    func testReplayGainTagsChangeTheLevelByTheirValue() throws {
        let none = try level("tagged.flac").dB
        XCTAssertEqual(try level("tagged.flac", ["--replaygain=track"]).dB - none, -6, accuracy: 0.3, "the track gain's -6 dB")
        XCTAssertEqual(try level("tagged.flac", ["--replaygain=album"]).dB - none, -12, accuracy: 0.3, "the album gain's -12 dB")
        XCTAssertEqual(try level("tagged.flac", ["--replaygain=track", "--replaygain-preamp=3"]).dB - none, -3, accuracy: 0.3, "the pre-amp adds its dB")
    }

    func testNightModeNarrowsALoudQuietPair() throws {
        let gap = try level("loud.flac").dB - level("quiet.flac").dB
        let night = try level("loud.flac", ["--night-mode"]).dB - level("quiet.flac", ["--night-mode"]).dB
        XCTAssertEqual(gap, 24, accuracy: 0.5, "the pair as made")
        XCTAssertLessThan(night, gap - 5, "night mode brings them closer (\(gap) → \(night) dB)")
        XCTAssertGreaterThan(try level("quiet.flac", ["--night-mode"]).dB, try level("quiet.flac").dB + 3, "the quiet one is louder")
    }

    func testAnEqualizerBandCutLowersAToneInItAndAPresetByName() throws {
        let flat = try level("k1.flac").dB
        XCTAssertEqual(try level("k1.flac", ["--equalizer=0,0,0,0,0,-24,0,0,0,0"]).dB - flat, -24, accuracy: 1.5, "947 Hz is band 5's centre")
        XCTAssertEqual(try level("k1.flac", ["--equalizer=-24,-24,0,0,0,0,0,0,-24,-24"]).dB, flat, accuracy: 1, "bands far from the tone leave it")
        XCTAssertEqual(try level("k1.flac", ["--equalizer=flat"]).dB, flat, accuracy: 0.1)
        let bad = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--equalizer=loudest", TestMedia.path("clip2s.mp4")], timeout: 20)
        XCTAssertEqual(bad.status, 2, "an unknown preset is refused: \(bad.stderr)")
        XCTAssertTrue(bad.stderr.contains("--equalizer takes a preset"), bad.stderr)
    }

    /// Off, the pipeline has no audio filter of Reel's (the default path costs nothing); on, the
    /// engine's log names the filter it built.
    func testEffectsOffBuildNoFilterAndOnNameTheirs() throws {
        let off = try level("k1.flac", [], environment: ["REEL_DEBUG": "engine"])
        XCTAssertFalse(off.stderr.contains("audio effects:"), "no effect, no filter: \(off.stderr.suffix(600))")
        let on = try level("k1.flac", ["--night-mode", "--replaygain=track"], environment: ["REEL_DEBUG": "engine"])
        XCTAssertTrue(on.stderr.contains("audio effects: scaletempo ! audioconvert ! rgvolume name=reel-replaygain"), on.stderr.suffix(600).description)
        XCTAssertTrue(on.stderr.contains("audiodynamic"), on.stderr.suffix(600).description)
    }
}

/// The effects as properties, on the socket while an item plays: set, read, cycled; turning one
/// on mid-play keeps the position (the item is loaded again where it was, not from its start,
/// and is not a new item); a curve's change is set on the equalizer in place.
final class SoundEffectPropertiesTests: XCTestCase {
    private var id = 0
    private func ask(_ c: IPCTestClient, _ command: [Any]) -> [String: Any] { id += 1; return c.request(command, id: id) ?? [:] }
    private func position(_ c: IPCTestClient) -> Double { ask(c, ["get_property", "time-pos"])["data"] as? Double ?? -1 }

    func testTheEffectsOnTheSocketWhilePlaying() throws {
        let dir = TestMedia.temporaryDirectory("reel-sound-ipc")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("s.sock").path
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--headless", "--events", "--ipc", socket, "--no-resume", "--no-config",
                                                                       "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true",
                                                                       TestMedia.path("long60s.mp4")])
        defer { _ = reel.finish(timeout: 5, dumpStacks: false) }
        let c = try XCTUnwrap(IPCTestClient(path: socket), reel.stderr)
        let deadline = Date().addingTimeInterval(20)
        while position(c) < 2, Date() < deadline { usleep(100_000) }
        let names = ask(c, ["get_property", "property-list"])["data"] as? [String] ?? []
        for name in ["replaygain", "replaygain-preamp", "dialogue-boost", "night-mode", "equalizer-preset", "equalizer-gains"] {
            XCTAssertTrue(names.contains(name), "\(name) in property-list")
        }
        XCTAssertEqual(ask(c, ["get_property", "night-mode"])["data"] as? Bool, false, "off by default")
        XCTAssertEqual(ask(c, ["get_property", "equalizer-preset"])["data"] as? String, "flat")

        let before = position(c)
        XCTAssertGreaterThan(before, 1.5, reel.stderr)
        XCTAssertEqual(ask(c, ["set_property", "night-mode", true])["error"] as? String, "success")
        XCTAssertEqual(ask(c, ["get_property", "night-mode"])["data"] as? Bool, true)
        let resumed = Date().addingTimeInterval(15)
        while position(c) < before + 1, Date() < resumed { usleep(100_000) }
        XCTAssertGreaterThanOrEqual(position(c), before + 1, "loaded again where it was and playing on: \(reel.stderr.suffix(800))")

        XCTAssertEqual(ask(c, ["set_property", "equalizer-preset", "rock"])["error"] as? String, "success")
        XCTAssertEqual(ask(c, ["get_property", "equalizer-gains"])["data"] as? String, "5,4,2,-1,-2,-1,2,4,5,5")
        XCTAssertEqual(ask(c, ["set_property", "equalizer-gains", "5,4,2,-1,-2,-1,2,4,5,6"])["error"] as? String, "success")
        XCTAssertEqual(ask(c, ["get_property", "equalizer-preset"])["data"] as? String, "custom")
        XCTAssertEqual(ask(c, ["set_property", "equalizer-gains", "1,2,3"])["error"] as? String, "invalid-argument")
        XCTAssertEqual(ask(c, ["cycle", "replaygain"])["error"] as? String, "success")
        XCTAssertEqual(ask(c, ["get_property", "replaygain"])["data"] as? String, "track")
        XCTAssertEqual(ask(c, ["set_property", "dialogue-boost", true])["error"] as? String, "success")
        let late = position(c)
        let on = Date().addingTimeInterval(15)
        while position(c) < late + 1, Date() < on { usleep(100_000) }
        XCTAssertGreaterThanOrEqual(position(c), late + 1, "still playing with every effect on")

        XCTAssertEqual(ask(c, ["quit"])["error"] as? String, "success")
        let end = reel.finish(timeout: 10, dumpStacks: false)
        XCTAssertEqual(end.status, 0, reel.stderr)
        let items = reel.stdout.split(separator: "\n").filter { $0.contains("\"event\":\"item\"") }
        XCTAssertEqual(items.count, 1, "an effect turned on is not a new item: \(items)")
    }
}
