import Foundation
import NIOCore
import NIOHTTP1

// Connections: accepting (own process only, bounded), serving one request after another, and
// closing them all at shutdown.
extension GatewayRequestHandler {
    // MARK: Connections

    func acceptConnections(_ server: NIOAsyncChannel<Connection, Never>) async {
        await withDiscardingTaskGroup { group in
            do {
                try await server.executeThenClose { inbound in
                    for try await connection in inbound {
                        let channel = connection.channel
                        guard unclaimed.claim(connection) else { continue }  // the shutdown closes it
                        if stopping.withLock({ $0 }) {
                            group.addTask { await Self.discard(connection) }
                            continue
                        }
                        guard connections.admit(channel, limit: maximumConnections) else {
                            group.addTask { await Self.discard(connection) }
                            continue
                        }
                        // Whose connection it is is asked in the connection's own task: the
                        // accept loop never waits on it.
                        group.addTask {
                            if self.isForeign(channel) {
                                self.refusedConnections.withLock { $0 += 1 }
                                await Self.discard(connection)
                            } else {
                                await self.serve(connection)
                            }
                            self.connections.remove(channel)
                        }
                    }
                }
            } catch {
                // The server channel closed (shutdown).
            }
        }
    }

    /// Whether another process opened this connection (`LoopbackPeer`); never when the gateway
    /// serves any process (`ownProcessOnly` off) or when it cannot tell.
    func isForeign(_ channel: Channel) -> Bool {
        guard serverPort != nil, let remote = channel.remoteAddress, let local = channel.localAddress,
              let peer = remote.ipAddress.flatMap({ SocketEndpoint(host: $0, port: remote.port ?? -1) }),
              let server = local.ipAddress.flatMap({ SocketEndpoint(host: $0, port: local.port ?? -1) }) else { return false }
        return LoopbackPeer.isOwnProcess(peer: peer, server: server) == false
    }

    /// Closes a connection that will not be served (its async wrapper must be finished, not dropped).
    static func discard(_ connection: Connection) async {
        try? await connection.executeThenClose { _, _ in }
    }

    /// Closes every client connection (shutdown); those still waiting to be accepted are closed
    /// as the accept loop meets them (each connection's async wrapper must be finished, not
    /// dropped: swift-nio asserts on a writer deinitialised unfinished).
    func closeConnections() {
        stopping.withLock { $0 = true }
        connections.closeAll()
    }

    func serve(_ connection: Connection) async {
        let closing = ConnectionClosing(connection.channel)
        do {
            try await connection.executeThenClose { inbound, outbound in
                var head: HTTPRequestHead?
                for try await part in inbound {
                    switch part {
                    case .head(let h): head = h
                    case .body: continue
                    case .end:
                        guard let h = head else { continue }
                        head = nil
                        // Stopped when the client goes or the item is released (`Transfers`).
                        let item = registry.parse(path: h.uri)?.0
                        let keepAlive = try await transfers.run(item: item, stop: closing.signal()) {
                            try await self.respond(to: h, outbound: outbound)
                        }
                        if keepAlive != true { return }
                    }
                }
            }
        } catch {
            // The client went away mid-response (seeks and switches do that): nothing to do.
        }
    }
}
