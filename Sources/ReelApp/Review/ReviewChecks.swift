import Foundation
import ReelCore
import ReelGLib

/// `reel review`'s automated findings: each item the reviewer reaches is checked by `reel check`
/// in another process (so the window's pipeline and main loop never wait for it), one at a
/// time, into DIR/checks/<index>/; what it found is shown in the review bar and joins the report.
/// An item that carries credentials of its own (a playlist entry's headers) is not checked: they
/// would have to reach the child's command line.
@MainActor
final class ReviewChecks {
    enum State: Equatable {
        case waiting, running, done(CheckReport.Item), failed(String), skipped(String)
    }

    private let directory: URL
    private let executable: String
    private(set) var states: [Int: State] = [:]
    private var queue: [(index: Int, uri: String)] = []
    private var running: Process?
    var onChange: () -> Void = {}

    init(directory: URL, executable: String = "/proc/self/exe") {
        self.directory = directory.appendingPathComponent("checks", isDirectory: true)
        self.executable = executable
    }

    /// A previous run's findings are kept: an item checked before is not checked again.
    func loadPrevious(count: Int) {
        for i in 0..<count {
            if let item = Self.read(reportIn: folder(i), index: i) { states[i] = .done(item) }
        }
    }

    func reached(index: Int, uri: String, hasOwnCredentials: Bool) {
        guard states[index] == nil else { return }
        if hasOwnCredentials {
            states[index] = .skipped("not checked: the item carries credentials of its own")
            onChange()
            return
        }
        states[index] = .waiting
        queue.append((index, uri))
        startNext()
    }

    private func folder(_ index: Int) -> URL { directory.appendingPathComponent(String(index), isDirectory: true) }

    private func startNext() {
        guard running == nil, !queue.isEmpty else { return }
        let (index, uri) = queue.removeFirst()
        let out = folder(index)
        try? FileManager.default.removeItem(at: out)
        try? FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable).resolvingSymlinksInPath()
        process.arguments = ["check", "--quiet", "--picture-audit", "--report", out.path, "--item-timeout", "60", uri]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.terminationHandler = { [weak self] _ in
            MainQueue.shared.async { MainActor.assumeIsolated { self?.finished(index) } }
        }
        do {
            try process.run()
            running = process
            states[index] = .running
            Log.debug(.app, .info, "review: checking item \(index) in process \(process.processIdentifier)")
        } catch {
            states[index] = .failed("the check could not start: \(error)")
            startNext()
        }
        onChange()
    }

    private func finished(_ index: Int) {
        running = nil
        states[index] = Self.read(reportIn: folder(index), index: index).map(State.done) ?? .failed("the check wrote no report")
        onChange()
        startNext()
    }

    /// The one item of a check's report, as item `index` of the review, its frames' paths
    /// relative to the review directory.
    static func read(reportIn folder: URL, index: Int) -> CheckReport.Item? {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("report.json")),
              var item = (try? CheckReport.decode(data))?.items.first else { return nil }
        item.index = index
        let prefix = "checks/\(index)/"
        for j in item.frames.indices { item.frames[j].file = item.frames[j].file.map { prefix + $0 } }
        return item
    }

    /// What the bar says of item `index`'s check.
    func summary(_ index: Int) -> String {
        switch states[index] {
        case nil, .waiting?: "check: waiting"
        case .running?: "check: running…"
        case .failed(let why)?: "check: \(why)"
        case .skipped(let why)?: why
        case .done(let item)?:
            if let error = item.error { "check: FAILED \(error.code)" }
            else if let p = item.problems.first(where: { $0.severity == .error }) { "check: \(item.problems.filter { $0.severity == .error }.count) problem(s), \(p.code)" }
            else { "check: ok" + (item.width.map { w in item.height.map { " \(w)×\($0)" } ?? "" } ?? "") }
        }
    }

    /// Stops the check under way (the review ends): no process outlives Reel.
    func stop() {
        queue.removeAll()
        if let running, running.isRunning { running.terminate() }
        running = nil
    }
}
