import Foundation
import ReelCore
import XCTest

final class UUIDTextTests: XCTestCase {
    /// The queue's ids as the socket and MPRIS say them: Foundation's text, lowercase.
    func testTheTextIsFoundationsInLowercase() {
        for _ in 0..<1000 {
            let id = UUID()
            XCTAssertEqual(id.lowercaseText, id.uuidString.lowercased())
        }
        XCTAssertEqual(UUID(uuidString: "00000000-0000-0000-0000-000000000000")?.lowercaseText, "00000000-0000-0000-0000-000000000000")
        XCTAssertEqual(UUID(uuidString: "FFFFFFFF-ABCD-EF01-2345-6789ABCDEF0A")?.lowercaseText, "ffffffff-abcd-ef01-2345-6789abcdef0a")
    }
}
