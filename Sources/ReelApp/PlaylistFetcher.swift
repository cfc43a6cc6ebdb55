import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches a playlist over HTTP(S) at start-up, bounded in time and size, so that it can be
/// expanded (or recognised as HLS). Runs before the GLib loop starts, on a URLSession thread.
enum PlaylistFetcher {
    static let timeout: Double = 10

    enum Outcome {
        case data(Data, finalURL: URL)
        case failed(String)
    }

    static func fetch(_ url: URL, headers: [(String, String)] = []) -> Outcome {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.setValue("Reel/0.1", forHTTPHeaderField: "User-Agent")
        for (name, value) in headers { request.addValue(value, forHTTPHeaderField: name) }
        let box = OutcomeBox()
        let done = DispatchSemaphore(value: 0)
        let config = URLSessionConfiguration.ephemeral
        config.timeoutIntervalForRequest = timeout
        config.timeoutIntervalForResource = timeout
        let session = URLSession(configuration: config)
        let task = session.dataTask(with: request) { data, response, error in
            if let error {
                box.set(.failed(error.localizedDescription))
            } else if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
                box.set(.failed("HTTP status \(http.statusCode)"))
            } else if let data, data.count <= 16 << 20 {
                box.set(.data(data, finalURL: response?.url ?? url))
            } else {
                box.set(.failed("the playlist is larger than 16 MiB"))
            }
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + timeout + 1) == .timedOut {
            task.cancel()
            session.invalidateAndCancel()
            return .failed("timed out after \(Int(timeout)) s")
        }
        session.finishTasksAndInvalidate()
        return box.get() ?? .failed("no response")
    }
}

private final class OutcomeBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: PlaylistFetcher.Outcome?
    func set(_ v: PlaylistFetcher.Outcome) { lock.lock(); value = v; lock.unlock() }
    func get() -> PlaylistFetcher.Outcome? { lock.lock(); defer { lock.unlock() }; return value }
}
