@testable import ReelCore
import XCTest

/// `reel check --scenario FILE`: the line syntax (docs/QA.md's "Scenarios"), every action, every
/// malformed line with the line it is on, and the expectations' operators.
final class CheckScenarioTests: XCTestCase {
    func testEveryActionOfTheSyntax() throws {
        let text = """
        # a comment, then a blank line

        items *.m3u8 clip?.mp4
        seek 30
        seek 10% keyframe
        seek 0:01:05 exact   # a trailing comment
        pause 2
        pause
        play 5
        play
        set-rate 0.5
        select audio fr
        select subtitle none
        select sub 1
        quality 360p
        quality auto
        quality 2
        wait event rendition
        wait event seeked timeout 5
        wait 1.5
        frame
        frame golden=title-card
        expect position ~= 30/0.5
        expect paused == yes
        set volume 50
        set sub-scale 1.5 2
        play-to-end
        seek-storm
        seek-storm 50 seed=7
        switch-tracks
        """
        let s = try CheckScenario.parse(text, name: "walk")
        XCTAssertEqual(s.name, "walk")
        XCTAssertEqual(s.itemPatterns, ["*.m3u8", "clip?.mp4"])
        let expected: [(Int, CheckScenario.Action)] = [
            (4, .seek(.seconds(30), .accurate)), (5, .seek(.percent(10), .keyframe)), (6, .seek(.seconds(65), .accurate)),
            (7, .pause(2)), (8, .pause(0)), (9, .play(5)), (10, .play(nil)), (11, .setRate(0.5)),
            (12, .select(kind: .audio, choice: "fr")), (13, .select(kind: .sub, choice: "none")), (14, .select(kind: .sub, choice: "1")),
            (15, .quality(.height(360))), (16, .quality(.auto)), (17, .quality(.index(2))),
            (18, .waitEvent("rendition", timeout: 30)), (19, .waitEvent("seeked", timeout: 5)), (20, .wait(1.5)),
            (21, .frame(name: nil)), (22, .frame(name: "title-card")),
            (23, .expect(ScenarioExpectation(name: "position", op: .near, value: "30", tolerance: 0.5))),
            (24, .expect(ScenarioExpectation(name: "paused", op: .equal, value: "yes"))),
            (25, .set(name: "volume", value: "50")), (26, .set(name: "sub-scale", value: "1.5 2")),
            (27, .playToEnd), (28, .seekStorm(count: 20, seed: 1)), (29, .seekStorm(count: 50, seed: 7)), (30, .switchTracks),
        ]
        XCTAssertEqual(s.steps.map(\.line), expected.map(\.0))
        for (step, (line, action)) in zip(s.steps, expected) { XCTAssertEqual(step.action, action, "line \(line): \(step.text)") }
        XCTAssertEqual(s.steps[2].text, "seek 0:01:05 exact", "the line as written, its comment left out")
    }

    /// Each malformed line is refused with its number and what the action takes.
    func testMalformedLinesNameTheirLine() {
        let table: [(String, Int, String)] = [
            ("play\nseek", 2, "seek: takes a time"),
            ("seek 10 sideways", 1, "the mode is exact or keyframe"),
            ("seek 101%", 1, "seek: takes a time"),
            ("\n\npause -1", 3, "pause: “-1” is not a time"),
            ("wait 4000", 1, "not a time in seconds (0 to 3600)"),
            ("wait event", 1, "wait event NAME [timeout SECONDS]"),
            ("wait event end timeout soon", 1, "“soon” is not a time"),
            ("set-rate 0", 1, "takes a rate from 1/64 to 64"),
            ("set-rate 100", 1, "takes a rate from 1/64 to 64"),
            ("select video 1", 1, "takes audio or sub"),
            ("quality best", 1, "takes auto, a height such as 360p"),
            ("frame gold=x", 1, "takes golden=NAME"),
            ("expect position", 1, "takes NAME OP VALUE"),
            ("expect position >= soon", 1, "takes NAME OP VALUE"),
            ("expect position ~= 3/x", 1, "takes NAME OP VALUE"),
            ("set volume", 1, "takes a property and a value"),
            ("play-to-end now", 1, "takes 0 argument(s), got 1"),
            ("seek-storm 0", 1, "the count is 1 to 1000"),
            ("seek-storm 5 seven", 1, "the seed is seed=N"),
            ("items", 1, "items takes a pattern"),
            ("jump 5", 1, "“jump” is not an action"),
            ("# only a comment", 1, "the scenario has no action"),
            ("", 1, "the scenario has no action"),
        ]
        for (text, line, message) in table {
            XCTAssertThrowsError(try CheckScenario.parse(text, name: "t"), text) { error in
                guard let e = error as? CheckScenario.ParseError else { return XCTFail("\(text): \(error)") }
                XCTAssertEqual(e.line, line, text)
                XCTAssertTrue(e.message.contains(message), "\(text): \(e.message)")
                XCTAssertTrue(e.description.hasPrefix("line \(line): "), e.description)
            }
        }
    }

    func testTheBuiltInsParse() throws {
        XCTAssertEqual(try CheckScenario.parse(CheckScenario.builtIn["seek-storm"]!, name: "seek-storm").steps.map(\.action), [.seekStorm(count: 20, seed: 1)])
        XCTAssertEqual(try CheckScenario.parse(CheckScenario.builtIn["track-switch"]!, name: "track-switch").steps.map(\.action), [.switchTracks])
    }

    /// `items` patterns: an input or its last part; none means every item.
    func testItemsPatterns() throws {
        let s = try CheckScenario.parse("items *.m3u8 intro-??.mp4\nplay", name: "t")
        XCTAssertTrue(s.applies(to: "https://cdn.example/live/master.m3u8"))
        XCTAssertTrue(s.applies(to: "/media/intro-01.mp4"))
        XCTAssertFalse(s.applies(to: "/media/intro-001.mp4"))
        XCTAssertFalse(s.applies(to: "/media/film.mp4"))
        XCTAssertTrue(try CheckScenario.parse("play", name: "t").applies(to: "/anything.mkv"))
        let glob: [(String, String, Bool)] = [("*", "", true), ("a*b*c", "axxbyyc", true), ("a*b*c", "axxbyy", false), ("?", "", false),
                                              ("*.mp4", "x.mp4.part", false), ("**x", "abx", true)]
        for (p, t, want) in glob { XCTAssertEqual(GlobPattern.matches(p, t), want, "\(p) ~ \(t)") }
    }

    /// A seek storm's positions are the same for the same seed on every machine, within the item
    /// (never its last half second), and another seed gives others.
    func testSeekStormPositionsAreDeterministic() {
        let a = CheckScenario.stormPositions(count: 200, seed: 1, duration: 30)
        XCTAssertEqual(a, CheckScenario.stormPositions(count: 200, seed: 1, duration: 30))
        XCTAssertNotEqual(a, CheckScenario.stormPositions(count: 200, seed: 2, duration: 30))
        XCTAssertTrue(a.allSatisfy { $0 >= 0 && $0 <= 29.5 }, "\(a.filter { $0 > 29.5 })")
        XCTAssertGreaterThan(Set(a.map { Int($0 / 3) }).count, 8, "spread over the item, not bunched")
        XCTAssertEqual(Array(a.prefix(3)), [22.001, 28.645, 13.109], "SplitMix64's first values: a change of the generator changes every report")
    }

    func testExpectationOperators() throws {
        let table: [(String, JSONValue, Bool)] = [
            ("position ~= 30", .double(30.04), true), ("position ~= 30", .double(30.06), false), ("position~=30/0.5", .double(29.6), true),
            ("position >= 29.9", .double(29.9), true), ("position > 29.9", .double(29.9), false), ("position < 1", .double(0.5), true),
            ("position <= 1", .int(2), false), ("paused == yes", .bool(true), true), ("paused == no", .bool(true), false),
            ("paused != no", .bool(true), true), ("sub-lang == none", .null, true), ("sub-lang == fr", .null, false),
            ("audio-lang == FR", .string("fr"), true), ("audio-lang != fr", .string("en"), true),
            ("picture-height == 360", .int(360), true), ("picture-height == 360", .double(360.0), true), ("picture-height == 360", .string("360"), true),
            ("position >= 1", .null, false), ("position >= 1", .string("soon"), false),
        ]
        for (text, value, want) in table {
            let e = try XCTUnwrap(ScenarioExpectation.parse(text), text)
            XCTAssertEqual(e.holds(value), want, "\(text) against \(value.serialized())")
        }
        XCTAssertEqual(ScenarioExpectation.parse("position >= 29.9")?.op, .atLeast, ">= is not > then =")
        XCTAssertEqual(ScenarioExpectation.parse("position <= 29.9")?.op, .atMost)
        XCTAssertEqual(ScenarioExpectation.parse("position~=30/0.5")?.description, "position~=30/0.5")
        for bad in ["", "==3", "position==", "posi tion$ == 3", "position >= x", "position ~= 3/-1"] {
            XCTAssertNil(ScenarioExpectation.parse(bad), bad)
        }
    }

    /// A run's failed steps are the item's problems, each naming the scenario, its line and why;
    /// report.json reads back the same.
    func testARunsProblemsAndItsJSON() throws {
        let run = ScenarioRun(name: "walk", steps: [
            .init(line: 3, action: "seek 30", ok: true, at: 0.2, position: 30, message: "at 30.000 s"),
            .init(line: 4, action: "expect paused == yes", ok: false, at: 0.21, position: 30, message: "expected paused==yes, read paused=false"),
        ])
        XCTAssertFalse(run.ok)
        XCTAssertEqual(run.problems.map(\.code), ["scenario-failed"])
        XCTAssertEqual(run.problems.first?.line, 4)
        XCTAssertEqual(run.problems.first?.message, "walk line 4: expect paused == yes: expected paused==yes, read paused=false")
        let object = try JSONSerialization.jsonObject(with: Data(run.json.serialized().utf8))
        XCTAssertEqual(ScenarioRun(reportJSON: object), run)
    }
}
