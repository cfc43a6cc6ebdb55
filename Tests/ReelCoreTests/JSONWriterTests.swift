import Foundation
import ReelCore
import XCTest

/// The one-line JSON that `--events`, the control socket and report.json are made of.
final class JSONWriterTests: XCTestCase {
    func testNumbersAreAlwaysValidJSON() throws {
        let cases: [(Double, String)] = [
            (0, "0.0"), (1, "1.0"), (-2, "-2.0"), (1.5, "1.5"), (0.25, "0.25"), (1.0234, "1.023"),
            // Round to zero decimals' worth: these once came out as "0." and "-0.", which no JSON
            // parser accepts (a report.json and event lines were lost to it now and then).
            (0.0004, "0.0"), (0.00049, "0.0"), (-0.0004, "0.0"), (2.9996, "3.0"), (0.0005, "0.001"),
            (1e15 + 0.5, "1000000000000000.5"), (1e20, "100000000000000000000.0"),
            (.nan, "null"), (.infinity, "null"), (-.infinity, "null"),
        ]
        for (value, expected) in cases {
            let text = JSONValue.array([.double(value)]).serialized()
            XCTAssertEqual(text, "[\(expected)]", "\(value)")
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(text.utf8)), "\(value) → \(text)")
        }
    }

    func testEveryThousandthBelowTenParsesBack() throws {
        for i in -10_000...10_000 {
            let value = Double(i) / 1000 + 0.0004  // just off each step, the case that broke
            let text = JSONValue.object([("t", .double(value))]).serialized()
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
            let back = try XCTUnwrap(object["t"] as? Double, text)
            XCTAssertEqual(back, value, accuracy: 0.0006, text)
        }
    }

    func testStringsAreEscaped() throws {
        let text = JSONValue.object([("s", .string("a\"b\\c\n\u{01}é"))]).serialized()
        XCTAssertEqual(text, #"{"s":"a\"b\\c\n\u0001é"}"#)
        let back = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String])
        XCTAssertEqual(back["s"], "a\"b\\c\n\u{01}é")
    }
}
