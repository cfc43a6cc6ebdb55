import Foundation
import ReelCore
import XCTest

final class PlayQueueTests: XCTestCase {
    private func makeQueue(_ names: String = "abc", repeatMode: RepeatMode = .off, seed: UInt64 = 42) -> PlayQueue {
        PlayQueue(names.map { QueueItem(uri: "file:///m/\($0).mp4", title: String($0)) }, repeatMode: repeatMode, seed: seed)
    }

    private func titles(_ q: PlayQueue) -> String { q.items.map { $0.title ?? "?" }.joined() }

    private let failure = PlaybackError(kind: .notFound, message: "The file does not exist.")

    private enum Step: CustomStringConvertible {
        case start, end, fail, next, prev(Double), jump(Int)
        var description: String {
            switch self {
            case .start: "start"
            case .end: "end"
            case .fail: "fail"
            case .next: "next"
            case .prev(let p): "prev(\(p))"
            case .jump(let i): "jump(\(i))"
            }
        }
    }

    /// Each step, then the title of the current item afterwards ("-" when none).
    func testOrderRulesTable() {
        let table: [(name: String, mode: RepeatMode, steps: [Step], expect: String)] = [
            ("off plays through and stops", .off, [.start, .end, .end, .end], "abc-"),
            ("off: next at the end stays", .off, [.jump(2), .next], "cc"),
            ("next with no current starts at the first", .off, [.next], "a"),
            ("one replays at the end", .one, [.start, .end, .end], "aaa"),
            ("one: the user's next still moves", .one, [.start, .next, .end], "abb"),
            ("one: a failed item moves on", .one, [.start, .fail, .end], "abb"),
            ("one: a failed last item wraps", .one, [.jump(2), .fail], "ca"),
            ("all wraps to the first", .all, [.start, .end, .end, .end, .end], "abcab"),
            ("all: next at the end wraps", .all, [.jump(2), .next], "ca"),
            ("all: a round where everything failed stops", .all, [.start, .fail, .fail, .fail], "abc-"),
            ("all: one success keeps the loop going", .all, [.start, .end, .fail, .fail], "abca"),
            ("previous more than 3 s in restarts", .off, [.jump(1), .prev(3.5)], "bb"),
            ("previous at exactly 3 s goes back", .off, [.jump(1), .prev(3.0)], "ba"),
            ("previous at the first item restarts", .off, [.start, .prev(0.5)], "aa"),
            ("previous at the first item wraps under all", .all, [.start, .prev(0.5)], "ac"),
            ("jump out of range changes nothing", .off, [.jump(1), .jump(7), .jump(-1)], "bbb"),
            ("failure mid-queue moves on", .off, [.start, .fail, .end, .end], "abc-"),
        ]
        for row in table {
            var q = makeQueue(repeatMode: row.mode)
            var seen = ""
            for step in row.steps {
                switch step {
                case .start: q.jump(to: 0)
                case .end: q.finishCurrent(.played)
                case .fail: q.finishCurrent(.failed(failure))
                case .next: q.next()
                case .prev(let p): _ = q.previous(position: p)
                case .jump(let i): q.jump(to: i)
                }
                seen += q.current?.title ?? "-"
            }
            XCTAssertEqual(seen, row.expect, "\(row.name): steps \(row.steps)")
        }
    }

    func testPreviousReportsRestart() {
        var q = makeQueue()
        q.jump(to: 1)
        XCTAssertEqual(q.previous(position: 10)?.restarted, true)
        XCTAssertEqual(q.previous(position: 1)?.restarted, false)
        XCTAssertEqual(q.current?.title, "a")
        var empty = PlayQueue()
        XCTAssertNil(empty.previous(position: 0))
    }

    func testStatesFollowTheWalk() {
        var q = makeQueue("abcd")
        q.jump(to: 0)
        q.finishCurrent(.played)            // a played
        q.finishCurrent(.failed(failure))   // b failed
        q.next()                            // c skipped
        XCTAssertEqual(q.items.map(\.state), [.played, .failed(failure), .pending, .current])
        let rows = q.rows
        XCTAssertEqual(rows.map(\.isCurrent), [false, false, false, true])
        XCTAssertEqual(rows[1].failureMessage, "The file does not exist.")
        XCTAssertNil(rows[0].failureMessage)
        XCTAssertEqual(rows.map(\.index), [0, 1, 2, 3])
        XCTAssertEqual(rows.map(\.title), ["a", "b", "c", "d"])
    }

    func testRowsRedactFailureMessages() {
        var q = makeQueue("a")
        q.jump(to: 0)
        q.finishCurrent(.failed(PlaybackError(kind: .notAuthorized, message: "Rejected https://h/x?token=SECRET99")))
        XCTAssertFalse(q.rows[0].failureMessage!.contains("SECRET99"), q.rows[0].failureMessage!)
    }

    func testUpcomingDoesNotMove() {
        let table: [(mode: RepeatMode, at: Int, expect: String?)] = [
            (.off, 0, "b"), (.off, 2, nil), (.one, 1, "b"), (.all, 2, "a"), (.all, 0, "b"),
        ]
        for row in table {
            var q = makeQueue(repeatMode: row.mode)
            q.jump(to: row.at)
            let before = q
            XCTAssertEqual(q.upcoming?.title, row.expect, "\(row.mode) at \(row.at)")
            XCTAssertEqual(q, before, "upcoming must not move the queue")
        }
        XCTAssertNil(makeQueue().upcoming, "no current item: nothing comes after it")
    }

    func testUpcomingAgreesWithFinishAcrossShuffledRounds() {
        var q = makeQueue("abcdefgh", repeatMode: .all, seed: 7)
        q.jump(to: 0)
        q.setShuffle(true)
        for _ in 0..<40 {
            let predicted = q.upcoming?.id
            let actual = q.finishCurrent(.played)?.id
            XCTAssertEqual(predicted, actual)
        }
    }

    func testShuffleEveryItemOnceBeforeAnyRepeats() {
        for seed in UInt64(1)...20 {
            var q = makeQueue("abcdefghij", repeatMode: .all, seed: seed)
            q.jump(to: 3)
            q.setShuffle(true)
            XCTAssertEqual(q.current?.title, "d", "the current item stays current")
            XCTAssertEqual(q.currentIndex, 0, "the current item leads the shuffled order")
            var walk: [String] = [q.current!.title!]
            for _ in 0..<29 { walk.append(q.finishCurrent(.played)!.title!) }
            for round in 0..<3 {
                let chunk = walk[(round * 10)..<(round * 10 + 10)]
                XCTAssertEqual(Set(chunk).count, 10, "seed \(seed) round \(round): \(chunk)")
            }
            XCTAssertNotEqual(walk[9], walk[10], "a new round does not start with the item that just ended")
            XCTAssertNotEqual(walk[19], walk[20])
        }
    }

    func testShuffleIsSeededAndActuallyShuffles() {
        var a = makeQueue("abcdefghij", seed: 5), b = makeQueue("abcdefghij", seed: 5), c = makeQueue("abcdefghij", seed: 6)
        a.setShuffle(true); b.setShuffle(true); c.setShuffle(true)
        XCTAssertEqual(titles(a), titles(b))
        XCTAssertNotEqual(titles(a), titles(c))
        XCTAssertNotEqual(titles(a), "abcdefghij")
        XCTAssertEqual(Set(titles(a)), Set("abcdefghij"))
    }

    func testShuffleOffRestoresOrderAndKeepsCurrent() {
        var q = makeQueue("abcdefghij")
        let ids = q.items.map(\.id)
        q.jump(to: 6)
        q.setShuffle(true)
        XCTAssertTrue(q.isShuffled)
        q.finishCurrent(.played)
        let current = q.current!
        q.setShuffle(false)
        XCTAssertFalse(q.isShuffled)
        XCTAssertEqual(q.items.map(\.id), ids, "original order and identities back")
        XCTAssertEqual(q.current?.id, current.id)
        XCTAssertEqual(q.currentIndex, ids.firstIndex(of: current.id))
    }

    func testEditsWhileShuffledSurviveShuffleOff() {
        var q = makeQueue("abcde")
        q.jump(to: 0)
        q.setShuffle(true)
        let x = QueueItem(uri: "file:///m/x.mp4", title: "x")
        let y = QueueItem(uri: "file:///m/y.mp4", title: "y")
        q.insert([x], after: q.items.first { $0.title == "b" }!.id)
        q.append([y])
        q.remove(id: q.items.first { $0.title == "d" }!.id)
        XCTAssertEqual(q.items.firstIndex { $0.id == x.id }, 1 + q.items.firstIndex { $0.title == "b" }!)
        q.setShuffle(false)
        XCTAssertEqual(titles(q), "abxcey")
    }

    /// mpv's playlist-shuffle and playlist-unshuffle: each shuffle a new order with the current
    /// item first (shuffle on after the first), unshuffle the order from before the first.
    func testReshuffleTurnsShuffleOnGivesANewOrderAndUnshuffleRestoresTheFirst() {
        var q = makeQueue("abcdefghij", seed: 9)
        q.jump(to: 4)
        q.reshuffle()
        XCTAssertTrue(q.isShuffled)
        XCTAssertEqual(q.items.first?.title, "e", "the playing item first")
        let first = titles(q)
        q.reshuffle()
        XCTAssertNotEqual(titles(q), first, "a new order")
        XCTAssertEqual(q.items.first?.title, "e")
        XCTAssertEqual(Set(titles(q)), Set("abcdefghij"))
        q.setShuffle(false)
        XCTAssertEqual(titles(q), "abcdefghij")
        XCTAssertEqual(q.current?.title, "e")
    }

    /// mpv's playlist-clear: one pass leaves only the current item, which stays current; shuffle
    /// off afterwards restores a one-item order; an unknown id removes nothing.
    func testKeepOnlyLeavesTheCurrentItemCurrent() {
        var q = makeQueue("abcdefghij")
        q.jump(to: 3)
        q.setShuffle(true)
        let current = q.current!.id
        XCTAssertEqual(q.keepOnly(QueueItem(uri: "file:///m/z.mp4").id), [], "not in the queue: nothing removed")
        let removed = q.keepOnly(current)
        XCTAssertEqual(removed.count, 9)
        XCTAssertFalse(removed.contains(current))
        XCTAssertEqual(titles(q), "d")
        XCTAssertEqual(q.current?.id, current)
        XCTAssertEqual(q.currentIndex, 0)
        q.setShuffle(false)
        XCTAssertEqual(titles(q), "d")
        q.finishCurrent(.played)
        XCTAssertNil(q.current, "nothing after it")
    }

    func testIdentitySurvivesReordering() {
        var q = makeQueue("abcde")
        let ids = Dictionary(uniqueKeysWithValues: q.items.map { ($0.title!, $0.id) })
        q.jump(to: 1)
        q.move(id: ids["b"]!, to: 4)
        q.move(id: ids["e"]!, to: 0)
        q.move(id: ids["a"]!, to: 99)
        XCTAssertEqual(titles(q), "ecdba")
        XCTAssertEqual(q.current?.id, ids["b"], "moving keeps the current item current")
        XCTAssertEqual(q.currentIndex, 3)
        for item in q.items { XCTAssertEqual(item.id, ids[item.title!]) }
    }

    func testInsertAndRemoveTable() {
        let table: [(name: String, op: (inout PlayQueue) -> Bool, expect: String, current: String?, changed: Bool)] = [
            ("insert after an item", { q in q.insert([QueueItem(uri: "file:///x", title: "x")], after: q.items[0].id); return false }, "axbc", "b", false),
            ("insert at the end", { q in q.insert([QueueItem(uri: "file:///x", title: "x")], after: nil); return false }, "abcx", "b", false),
            ("insert after an unknown id appends", { q in q.insert([QueueItem(uri: "file:///x", title: "x")], after: UUID()); return false }, "abcx", "b", false),
            ("inserting an id twice adds it once", { q in q.insert([q.items[0]], after: nil); return false }, "abc", "b", false),
            ("remove another item", { q in q.remove(id: q.items[2].id) }, "ab", "b", false),
            ("remove the current item: the next becomes current", { q in q.remove(id: q.items[1].id) }, "ac", "c", true),
            ("remove an unknown id", { q in q.remove(id: UUID()) }, "abc", "b", false),
            ("clear", { q in q.clear(); return false }, "", nil, false),
        ]
        for row in table {
            var q = makeQueue()
            q.jump(to: 1)
            let changed = row.op(&q)
            XCTAssertEqual(titles(q), row.expect, row.name)
            XCTAssertEqual(q.current?.title, row.current, row.name)
            XCTAssertEqual(changed, row.changed, row.name)
        }
        var q = makeQueue()
        q.jump(to: 2)
        XCTAssertTrue(q.remove(id: q.items[2].id))
        XCTAssertNil(q.current, "removing the last, current item leaves no current item")
    }

    func testUpdateAndDisplayTitle() {
        var q = PlayQueue([QueueItem(uri: "file:///m/My%20Clip.mp4")])
        XCTAssertEqual(q.rows[0].title, "My Clip.mp4")
        q.update(id: q.items[0].id, duration: 12.5)
        XCTAssertEqual(q.rows[0].duration, 12.5)
        XCTAssertEqual(q.rows[0].durationText, "0:12")
    }

    /// What is derived from the items is kept while `version` is the same (issue 51): every change
    /// to the items changes it, queues never share one, and equal queues stay equal.
    func testTheVersionChangesWithEveryChangeToTheItemsAndLookupsStayRight() {
        let items = (0..<5).map { QueueItem(uri: "file:///\($0).mp4") }
        var q = PlayQueue(items, seed: 7)
        let other = PlayQueue(items, seed: 7)
        XCTAssertNotEqual(q.version, other.version, "unique across queues")
        XCTAssertEqual(q, other, "the version is not the queue's value")
        var seen = Set([q.version])
        let layout = q.layoutVersion
        _ = q.jump(to: items[2].id)
        XCTAssertTrue(seen.insert(q.version).inserted, "the current item's state changed")
        XCTAssertEqual(q.layoutVersion, layout, "the list itself did not: its titles are kept")
        let before = q.version
        XCTAssertEqual(q.index(of: items[2].id), 2)
        XCTAssertEqual(q.version, before, "a lookup changes nothing")
        q.move(id: items[2].id, to: 0)
        XCTAssertTrue(seen.insert(q.version).inserted)
        XCTAssertNotEqual(q.layoutVersion, layout, "a move changes the list")
        XCTAssertEqual(q.index(of: items[2].id), 0, "the remembered index is checked, not trusted")
        XCTAssertEqual(q.currentIndex, 0)
        _ = q.remove(id: items[0].id)
        XCTAssertTrue(seen.insert(q.version).inserted)
        XCTAssertNil(q.index(of: items[0].id))
        XCTAssertEqual(q.index(of: items[4].id), 3)
        q.append([QueueItem(uri: "file:///new.mp4")])
        XCTAssertTrue(seen.insert(q.version).inserted)
    }
}

