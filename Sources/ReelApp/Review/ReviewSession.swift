import Foundation
import ReelCore
import ReelEngine

/// `reel review`: a person steps through a playlist in the window and judges each item. This
/// component owns the review: the book of verdicts and marks (`ReviewBook`, written to
/// DIR/review.json after every change, durably), the commands (`verdict pass|fail [NOTE]`,
/// `mark NOTE`, registered on the socket and input.conf's road), the review keys, the automated
/// findings (`ReviewChecks`) and the report (report.json, index.html, JUnit). The window session
/// only hosts it: it forwards events and keys, and shows `barText`.
@MainActor
final class ReviewSession {
    let options: ReviewOptions
    private let core: SessionCore
    private(set) var book = ReviewBook()
    private let checks: ReviewChecks?
    /// The bar's text changed (a verdict, a mark, a check's result, another item).
    var onChange: () -> Void = {}
    /// Every item is judged: the review ends with this status.
    var onFinished: (Int32) -> Void = { _ in }

    private var reviewJSON: URL { options.directory.appendingPathComponent("review.json") }
    /// The folder's lock (`review.lock`, flock), held while the review runs; the process's end
    /// lets it go.
    private var folderLock: Int32 = -1
    /// The largest review.json read: a book of verdicts and marks is kilobytes; 16 MiB of one
    /// blocked every verdict (each rewrites it whole) and quit then wrote no report.
    static let maximumBookBytes: Int64 = 4 << 20

    /// Takes `dir/review.lock` for this process, or says which process holds it.
    private static func lock(_ dir: URL) throws(ReviewFailure) -> Int32 {
        let path = dir.appendingPathComponent("review.lock").path
        let fd = open(path, O_CREAT | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ReviewFailure("\(path): cannot be opened (\(String(cString: strerror(errno))))") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 32)
            let n = read(fd, &buffer, 31)
            close(fd)
            let holder = n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : "?"
            throw ReviewFailure("\(dir.path): another reel review (process \(holder)) is using this folder; one review of a folder at a time, or merge two with reel check merge")
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pwrite(fd, pid, pid.count, 0)
        return fd
    }

    /// Opens (or resumes) the review in `options.directory`; throws a message for people when the
    /// directory cannot be used or its review.json cannot be read.
    init(options: ReviewOptions, core: SessionCore) throws(ReviewFailure) {
        self.options = options
        self.core = core
        do {
            try FileManager.default.createDirectory(at: options.directory.appendingPathComponent("marks", isDirectory: true), withIntermediateDirectories: true)
        } catch {
            throw ReviewFailure("\(options.directory.path): cannot be made a review folder (\(error.localizedDescription))")
        }
        // One review of a folder at a time: two wrote each other's verdicts over silently.
        folderLock = try Self.lock(options.directory)
        core.sequencer.holdsFailedItem = true
        checks = options.automatedChecks ? ReviewChecks(directory: options.directory, executable: options.reelExecutable) : nil
        if let size = LocalFileFacts(path: reviewJSON.path).size, size > Self.maximumBookBytes {
            throw ReviewFailure("\(reviewJSON.path): larger than \(Self.maximumBookBytes >> 20) MiB, not a review Reel wrote (move it away to start a new review)")
        }
        if let data = FileManager.default.contents(atPath: reviewJSON.path) {
            do {
                let (book, dropped) = try ReviewBook.decode(data, matching: uris)
                self.book = book
                for d in dropped { Diagnostics.say("review.json: \(d)") }
                Diagnostics.say(String(format: tr("review: resumed, %d of %d items judged"), book.judgedCount(of: uris.count), uris.count))
            } catch {
                throw ReviewFailure("\(reviewJSON.path): \(error.description) (move it away to start a new review)")
            }
        }
        checks?.loadPrevious(count: uris.count)
        checks?.onChange = { [weak self] in
            self?.writeReport()
            self?.onChange()
        }
        register(core.commandRegistry)
    }

    private var uris: [String] { core.sequencer.queue.items.map(\.uri) }
    private var count: Int { core.sequencer.queue.count }

    /// Where the review starts: the first item not yet judged (the start when all are).
    var startIndex: Int { book.nextUnjudged(after: nil, count: count) ?? 0 }

    // MARK: Commands

    /// `verdict pass|fail [NOTE]` and `mark NOTE`, on the socket (JSON or text form) and for
    /// input.conf.
    private func register(_ registry: IPCCommandRegistry) {
        registry.register("verdict") { [weak self] args in
            guard let self else { return .null }
            guard case .string(let word)? = args.first, let verdict = ItemReview.Verdict(rawValue: word), args.count <= 2 else {
                throw IPCError(.invalidArgument, "“verdict” takes pass or fail, then an optional note.")
            }
            return try self.judge(verdict, note: args.count > 1 ? Self.text(args[1]) : nil)
        }
        registry.register("mark") { [weak self] args in
            guard let self else { return .null }
            guard args.count <= 1 else { throw IPCError(.invalidArgument, "“mark” takes one note (quote it in the text form).") }
            return try self.mark(note: args.first.flatMap(Self.text) ?? "")
        }
    }

    private static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let s): s
        case .int(let i): String(i)
        case .double(let d): String(d)
        default: nil
        }
    }

    /// Judges the item playing, writes it down, and moves to the next item not yet judged (the
    /// review ends when there is none).
    @discardableResult
    func judge(_ verdict: ItemReview.Verdict, note: String?) throws -> JSONValue {
        guard let index = core.sequencer.currentIndex else { throw IPCError(.unavailable, "No item is playing.") }
        let item = core.sequencer.queue.items[index]
        book.judge(index: index, uri: item.uri, title: item.displayTitle, verdict: verdict, note: note, reviewer: options.reviewer, at: Date())
        try save()
        Log.debug(.app, .info, "review: item \(index) \(verdict.rawValue)")
        let next = book.nextUnjudged(after: index, count: count)
        if let next {
            core.sequencer.play(at: next)
        } else {
            Diagnostics.say(String(format: tr("review: every item is judged, %d failed; report in %@"), book.failedCount(of: count), options.directory.path))
            onFinished(exitStatus)
        }
        onChange()
        return .object([("index", .int(index)), ("verdict", .string(verdict.rawValue)), ("next", .optional(next))])
    }

    /// A timecoded note on the item playing, with the frame on screen caught as `--screenshot-at`
    /// catches it (as it passed the video sink, at the video's own size) in DIR/marks/.
    @discardableResult
    func mark(note: String, at time: Double? = nil, frame shown: Data? = nil) throws -> JSONValue {
        guard let index = core.sequencer.currentIndex else { throw IPCError(.unavailable, "No item is playing.") }
        let item = core.sequencer.queue.items[index]
        let player = core.player
        let caught = shown == nil ? player.shownFrame() : nil
        let t = time ?? caught?.time ?? player.displayedFrameTime ?? player.position
        var frame: String?
        if let png = shown ?? caught?.png ?? player.snapshotPNG() {
            let name = String(format: "marks/%03d-%09.3f-%@.png", index, t, UUID().uuidString.prefix(8).lowercased())
            do {
                try PrivateFile.write(png, to: options.directory.appendingPathComponent(name).path, mode: 0o644, durable: true)
                frame = name
            } catch {
                Diagnostics.say(String(format: tr("review: the mark's frame could not be written: %@"), "\(error)"))
            }
        }
        let wallClock = core.commands.snapshot.epochTime.map { Date(timeIntervalSince1970: $0) }
        book.mark(index: index, uri: item.uri, title: item.displayTitle,
                  ItemReview.Mark(time: t, wallClock: wallClock, note: ItemReview.cleanNote(note) ?? "", frame: frame))
        try save()
        onChange()
        return .object([("index", .int(index)), ("time", .double((t * 1000).rounded() / 1000)), ("frame", .optional(frame))])
    }

    /// review.json at once (temporary file, fsync, rename), then the report.
    private func save() throws {
        do {
            try PrivateFile.write(Data(book.jsonText.utf8), to: reviewJSON.path, mode: 0o644, durable: true)
        } catch {
            Diagnostics.say("review: \(error)")
            throw IPCError(.unavailable, "The review could not be written: \(error)")
        }
        writeReport()
    }

    // MARK: Events

    func handle(_ event: PlayerEvent, item index: Int?) {
        // The frame on screen is kept as it passes the sink, for the marks (a new item may have a new sink).
        switch event {
        case .itemChanged, .status(.readyToPlay): core.player.keepShownFrame()
        default: break
        }
        guard case .itemChanged = event, let index, core.sequencer.queue.items.indices.contains(index) else { return }
        let item = core.sequencer.queue.items[index]
        checks?.reached(index: index, uri: item.uri, hasOwnCredentials: !item.headers.isEmpty)
        onChange()
    }

    // MARK: Keys

    enum KeyRequest { case pass, fail, mark }
    /// The review keys: y passes, n fails (asking for a note), b marks (asking for a note).
    static let keys: [(key: String, request: KeyRequest, meaning: String)] = [
        ("y", .pass, "Review: pass the item and go to the next one not judged"),
        ("n", .fail, "Review: fail the item, with a note (Enter records it, Esc cancels)"),
        ("b", .mark, "Review: mark this moment, with a note (its frame is kept)"),
    ]

    // MARK: What the bar shows

    var barText: String {
        let index = core.sequencer.currentIndex
        var parts = ["Review \(index.map { "\($0 + 1)" } ?? "–") of \(count)"]
        if let index {
            parts.append(core.sequencer.queue.items[index].displayTitle)
            if let checks { parts.append(checks.summary(index)) }
            let review = book.review(at: index)
            parts.append("verdict: " + (review?.verdict.map { $0.rawValue.uppercased() + (review?.note.map { " (\($0))" } ?? "") } ?? "—"))
            if let marks = review?.marks.count, marks > 0 { parts.append("\(marks) mark\(marks == 1 ? "" : "s")") }
        }
        parts.append("\(book.judgedCount(of: count)) judged")
        return parts.joined(separator: " · ")
    }

    // MARK: The report

    /// 0 when every item passed, 1 when any failed or is not judged.
    var exitStatus: Int32 { book.allPassed(count: count) ? 0 : 1 }

    /// report.json (`reel check`'s with each item's review), index.html and the JUnit file.
    func writeReport() {
        let items = core.sequencer.queue.items.enumerated().map { i, q -> CheckReport.Item in
            var item: CheckReport.Item
            if case .done(let checked)? = checks?.states[i] { item = checked } else {
                item = CheckReport.Item(index: i, input: q.uri, uri: q.uri, title: q.displayTitle)
            }
            item.review = book.review(at: i) ?? ItemReview()
            return item
        }
        let report = CheckReport(items: items, positions: [])
        do {
            try PrivateFile.write(Data(report.jsonText.utf8), to: options.directory.appendingPathComponent("report.json").path, mode: 0o644, durable: true)
            try PrivateFile.write(Data(CheckReportHTML.render(report).utf8), to: options.directory.appendingPathComponent("index.html").path, mode: 0o644)
            if let junit = options.junit { try PrivateFile.write(Data(CheckJUnit.render(report).utf8), to: junit.path, mode: 0o644) }
        } catch {
            Diagnostics.say(String(format: tr("review: the report could not be written: %@"), "\(error)"))
        }
    }

    func stop() {
        checks?.stop()
        writeReport()
    }
}

struct ReviewFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
