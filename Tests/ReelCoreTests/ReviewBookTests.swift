import Foundation
import XCTest
@testable import ReelCore

/// `reel review`'s book of verdicts and marks (issue 49): resuming, reading back only the same
/// list's entries, merging two reviewers (a conflict is never settled by picking one), and the
/// report's review fields.
final class ReviewBookTests: XCTestCase {
    private let uris = ["file:///a.mp4", "https://cdn.example/b.m3u8?token=SECRET", "file:///c.mp4"]
    private let at = Date(timeIntervalSince1970: 1_800_000_000)

    func testTheNextItemNotJudgedWrapsAndNoneWhenAllAre() {
        var book = ReviewBook()
        XCTAssertEqual(book.nextUnjudged(after: nil, count: 3), 0)
        book.judge(index: 0, uri: uris[0], title: "a", verdict: .pass, note: nil, reviewer: "ana", at: at)
        book.mark(index: 2, uri: uris[2], title: "c", .init(time: 1, note: "flash"))
        XCTAssertEqual(book.nextUnjudged(after: 0, count: 3), 1)
        XCTAssertEqual(book.nextUnjudged(after: 2, count: 3), 1, "round the list")
        XCTAssertEqual(book.nextUnjudged(after: 1, count: 3), 2, "a mark is not a verdict")
        book.judge(index: 1, uri: uris[1], title: "b", verdict: .fail, note: "  no\nsound ", reviewer: "ana", at: at)
        book.judge(index: 2, uri: uris[2], title: "c", verdict: .pass, note: nil, reviewer: "ana", at: at)
        XCTAssertNil(book.nextUnjudged(after: 0, count: 3))
        XCTAssertEqual(book.review(at: 1)?.note, "no sound", "control characters become spaces, trimmed")
        XCTAssertEqual(book.failedCount(of: 3), 1)
        XCTAssertFalse(book.allPassed(count: 3))
        XCTAssertEqual(book.review(at: 2)?.marks.count, 1, "judging keeps the marks")
        XCTAssertEqual(ReviewBook().nextUnjudged(after: nil, count: 0), nil)
    }

    func testReviewJSONRoundTripsWithoutTheTokenAndDropsAnotherListsEntries() throws {
        var book = ReviewBook()
        book.judge(index: 1, uri: uris[1], title: "b", verdict: .fail, note: "breaks at 2 s", reviewer: "ana", at: at)
        book.mark(index: 1, uri: uris[1], title: "b", .init(time: 1.25, wallClock: at, note: "here", frame: "marks/001.png"))
        book.judge(index: 2, uri: uris[2], title: "c", verdict: .pass, note: nil, reviewer: "ana", at: at)
        let text = book.jsonText
        XCTAssertFalse(text.contains("SECRET"), "the URI is kept without its token: \(text)")
        let (back, dropped) = try ReviewBook.decode(Data(text.utf8), matching: uris)
        XCTAssertEqual(dropped, [])
        XCTAssertEqual(back.review(at: 1)?.verdict, .fail)
        XCTAssertEqual(back.review(at: 1)?.marks, [.init(time: 1.25, wallClock: at, note: "here", frame: "marks/001.png")])
        // The list changed: item 2 is another file now; its entry is not this item's.
        let (other, gone) = try ReviewBook.decode(Data(text.utf8), matching: [uris[0], uris[1], "file:///d.mp4"])
        XCTAssertNil(other.review(at: 2))
        XCTAssertEqual(gone.count, 1)
        XCTAssertThrowsError(try ReviewBook.decode(Data("{\"reel\":\"check\"}".utf8), matching: uris))
        XCTAssertThrowsError(try ReviewBook.decode(Data("not json".utf8), matching: uris))
    }

    func testAMarksFrameMustStayInTheMarksFolder() {
        for (path, ok) in [("marks/001-1.png", true), ("marks/../../etc/passwd.png", false), ("../marks/a.png", false), ("marks/.hidden.png", false),
                           ("marks/a.jpg", false), ("/abs/marks/a.png", false), ("marks/", false), ("marks/a/b.png", false)] {
            XCTAssertEqual(ReviewBook.safeFramePath(path) != nil, ok, path)
        }
        let decoded = ItemReview.decode(["verdict": "pass", "marks": [["time": 1, "note": "x", "frame": "../x.png"]]])
        XCTAssertNil(decoded?.marks.first?.frame, "a frame outside marks/ is dropped when read")
        XCTAssertNil(ItemReview.decode(["verdict": "maybe"]), "an unknown verdict is not a review")
    }

    func testTwoReviewersMergeAndDifferentVerdictsAreAConflict() {
        let ana = ItemReview(verdict: .fail, note: "no sound", reviewer: "ana", at: at, marks: [.init(time: 2, note: "here")])
        let bo = ItemReview(verdict: .fail, note: "silent", reviewer: "bo", at: at.addingTimeInterval(60), marks: [.init(time: 1, note: "there")])
        guard case .review(let both) = ReviewBook.merge(ana, bo) else { return XCTFail("the same verdict merges") }
        XCTAssertEqual(both.verdict, .fail)
        XCTAssertEqual(both.note, "no sound / silent")
        XCTAssertEqual(both.reviewer, "ana, bo")
        XCTAssertEqual(both.marks.map(\.time), [1, 2], "marks of both, in time order")
        guard case .review(let one) = ReviewBook.merge(ItemReview(marks: [.init(time: 3, note: "m")]), bo) else { return XCTFail() }
        XCTAssertEqual(one.verdict, .fail, "only one judged: that verdict")
        XCTAssertEqual(one.marks.count, 2)
        let pass = ItemReview(verdict: .pass, reviewer: "cy", at: at)
        guard case .conflict(let c) = ReviewBook.merge(ana, pass) else { return XCTFail("pass against fail is a conflict") }
        XCTAssertNil(c.verdict, "neither verdict wins")
        XCTAssertEqual(c.marks.count, 1)
    }

    func testMergedReportsJoinReviewsOfTheSameItemAndListTheConflict() throws {
        func report(_ verdicts: [ItemReview.Verdict?], reviewer: String) -> CheckReport {
            CheckReport(items: verdicts.enumerated().map { i, v in
                var item = CheckReport.Item(index: i, input: uris[i], uri: uris[i], title: "t\(i)")
                item.review = ItemReview(verdict: v, reviewer: reviewer, at: at)
                return item
            }, positions: [])
        }
        let merged = try CheckReport.merged([report([.pass, .fail, .pass], reviewer: "ana"), report([.pass, .fail, .fail], reviewer: "bo")])
        XCTAssertEqual(merged.items.map { $0.review?.verdict }, [.pass, .fail, nil])
        XCTAssertEqual(merged.reviewConflicts.map(\.index), [2])
        XCTAssertEqual(merged.reviewConflicts.first?.summary, "item 2: ana said pass, bo said fail")
        // Read back as `reel check merge` would, the conflict stays listed.
        let back = try CheckReport.decode(Data(merged.jsonText.utf8))
        XCTAssertEqual(back.reviewConflicts.map(\.index), [2])
        XCTAssertEqual(back.items.map { $0.review?.verdict }, [.pass, .fail, nil])
        // Shards (no reviews) that overlap are a retried shard: the later report is kept and listed
        // (issue 62; CheckPlanTests), not joined as reviews are.
        let plain = CheckReport(items: [CheckReport.Item(index: 0, input: "a", uri: "a", title: "a")], positions: [])
        XCTAssertEqual(try CheckReport.merged([plain, plain]).retried.map(\.index), [0])
        // JUnit: a failed verdict is a failure whose message is its note.
        var failed = CheckReport.Item(index: 0, input: "a", uri: "a", title: "a")
        failed.review = ItemReview(verdict: .fail, note: "no <sound>", reviewer: "ana")
        let junit = CheckJUnit.render(CheckReport(items: [failed], positions: []))
        XCTAssertTrue(junit.contains("<failure message=\"no &lt;sound&gt;\" type=\"review\">"), junit)
        XCTAssertTrue(junit.contains("failures=\"1\""), junit)
    }

    func testARegisteredCommandRunsOnTheSocketsRoadAndNeverReplacesABuiltIn() {
        MainActor.assumeIsolated {
            let registry = IPCCommandRegistry()
            var got: [JSONValue] = []
            registry.register("verdict") { args in got = args; return .string("ok") }
            registry.register("pause") { _ in .string("taken over") }
            XCTAssertEqual(registry.names, ["verdict"], "a built-in name is never taken over")
            guard case .success(let r) = IPCRequest.parse("verdict fail \"no sound\"", registered: registry.names) else { return XCTFail() }
            XCTAssertEqual(r.command, .registered("verdict", [.string("fail"), .string("no sound")]))
            guard case .failure(let f) = IPCRequest.parse("{\"command\":[\"verdict\",\"pass\"]}") else { return XCTFail("unknown without the registry") }
            XCTAssertEqual(f.error.code, .unknownCommand)
            let bindings = InputBindings(text: "y verdict pass\nn verdikt fail", registered: registry.names)
            XCTAssertEqual(bindings.problems.count, 1, "input.conf knows the registered command: \(bindings.problems)")
            _ = got
        }
    }
}
