import ReelCore
import XCTest

final class ObserverListTests: XCTestCase {
    func testOrderIdsAndRemoval() {
        var list = ObserverList<String>()
        let a = list.add("a"), b = list.add("b"), c = list.add("c")
        XCTAssertEqual([a, b, c], [1, 2, 3])
        XCTAssertEqual(list.all, ["a", "b", "c"], "oldest first")
        list.remove(b)
        list.remove(42)
        XCTAssertEqual(list.all, ["a", "c"])
        XCTAssertEqual(list.add("d"), 4, "ids are never reused")
        let snapshot = list.all
        list.removeAll()
        XCTAssertEqual(snapshot, ["a", "c", "d"], "`all` is a copy")
        XCTAssertEqual(list.count, 0)
    }
}
