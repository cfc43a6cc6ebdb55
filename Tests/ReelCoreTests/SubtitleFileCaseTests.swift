import ReelCore
import ReelTestSupport
import XCTest

/// Subtitle files as real ones are (`SubtitleFileCases`, shared with the `reel inspect` tests):
/// SubRip's encodings, line endings, counters and tags; SubStation Alpha's tags; WebVTT's cue text.
final class SubtitleFileCaseTests: XCTestCase {
    func testEveryCaseReadsAsItShould() {
        for c in SubtitleFileCases.all {
            let read = SubtitleFile.read(c.bytes, fileName: c.fileName)
            let cues = (try? read.timeline.get().cues) ?? []
            XCTAssertEqual(cues.map { "\($0.identifier)|\($0.text)" }, c.cues, c.name)
            if let markups = c.markups { XCTAssertEqual(cues.map(\.markup), markups, c.name) }
            XCTAssertEqual(read.problems.map(\.code.rawValue), c.problems, c.name)
        }
    }
}
