import Synchronization

/// The server as seen from its channel handlers (set once the server is bound).
final class HTTPFixtureServerBox: Sendable {
    let server = Mutex<HTTPFixtureServer?>(nil)
}

