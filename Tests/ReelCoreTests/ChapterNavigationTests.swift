import ReelCore
import XCTest

/// Chapter arithmetic as mpv's `chapter` property and `add chapter ±1` (PgUp, PgDn) have it.
final class ChapterNavigationTests: XCTestCase {
    let chapters = [Chapter(title: "Opening", time: 0), Chapter(title: "Middle", time: 3), Chapter(title: nil, time: 6.5)]

    func testTheChapterAPositionIsIn() {
        let rows: [(Double, Int?)] = [(0, 0), (2.98, 0), (2.995, 1), (3, 1), (6.48, 1), (6.5, 2), (100, 2)]
        for (position, expected) in rows { XCTAssertEqual(ChapterNavigation.index(at: position, in: chapters), expected, "at \(position)") }
        XCTAssertEqual(ChapterNavigation.index(at: 1, in: [Chapter(title: nil, time: 2)]), -1, "before the first: -1, as mpv")
        XCTAssertNil(ChapterNavigation.index(at: 1, in: []))
    }

    func testWhereAddChapterGoes() {
        let rows: [(position: Double, step: Int, target: Int?)] = [
            (0, 1, 1), (1, 1, 1), (3, 1, 2), (6.5, 1, nil), (9, 1, nil),
            (4, -1, 0),   // within 5 s of the chapter's start: the one before
            (12, -1, 2),  // 5.5 s in: back to its own start
            (1, -1, 0), (0, -1, 0),
            (12, -2, 1), (0, 0, nil),
        ]
        for row in rows {
            XCTAssertEqual(ChapterNavigation.target(from: row.position, step: row.step, in: chapters), row.target, "from \(row.position) by \(row.step)")
        }
        XCTAssertEqual(ChapterNavigation.target(from: 9, step: -1, in: chapters), 1, "2.5 s into the last chapter: the one before")
        XCTAssertNil(ChapterNavigation.target(from: 0, step: 1, in: []))
    }

    func testATableOfContentsIsPutInOrderOnceEachWithinTheItem() {
        let found = [Chapter(title: "c", time: 6.5), Chapter(title: "a", time: 0), Chapter(title: "a twice", time: 0.0001),
                     Chapter(title: "end", time: 10), Chapter(title: "nan", time: .nan), Chapter(title: "neg", time: -1), Chapter(title: "b", time: 3)]
        XCTAssertEqual(ChapterNavigation.normalised(found, duration: 10).map(\.title), ["a", "b", "c"])
        XCTAssertEqual(ChapterNavigation.normalised(found, duration: nil).map(\.title), ["a", "b", "c", "end"])
    }

    func testTheEventAndTheSocketListChaptersAsMpv() {
        let line = EventEncoder.line(.chapters(chapters), item: 0, time: 1)
        XCTAssertTrue(line.contains(#""event":"chapters""#), line)
        XCTAssertTrue(line.contains(#""chapters":[{"title":"Opening","time":0.0},{"title":"Middle","time":3.0},{"title":null,"time":6.5}]"#), line)
    }

    func testMarksMergeBelowAFewPixelsAndTheIndexIsFound() {
        let many = (0..<10_000).map { Chapter(title: nil, time: Double($0) * 0.001) }
        let marks = ChapterMarks.merged(many, duration: 10, width: 600)
        XCTAssertLessThanOrEqual(marks.count, 201)
        XCTAssertEqual(marks.first, 0)
        XCTAssertEqual(ChapterMarks.merged([Chapter(title: nil, time: 1), Chapter(title: nil, time: 5)], duration: 10, width: 600), [1, 5], "apart: both")
        XCTAssertEqual(ChapterMarks.tooltipRange(count: 3, current: 1), 0..<3)
        XCTAssertEqual(ChapterMarks.tooltipRange(count: 10_000, current: 9_999), 9_985..<10_000)
        XCTAssertEqual(ChapterMarks.tooltipRange(count: 10_000, current: -1), 0..<15)
        for position in [-1.0, 0, 0.0005, 4.2, 9.999, 20] {
            XCTAssertEqual(ChapterNavigation.index(at: position, in: many), (many.lastIndex { $0.time <= position + 0.01 }) ?? -1, "\(position)")
        }
    }
}
