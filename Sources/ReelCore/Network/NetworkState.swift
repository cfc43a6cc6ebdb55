/// What the desktop says of the network (GIO's `GNetworkMonitor`, backed by NetworkManager or the
/// portal): whether there is one, whether it costs by the byte, and how far it reaches.
public struct NetworkState: Sendable, Equatable, CustomStringConvertible {
    /// GNetworkConnectivity.
    public enum Connectivity: String, Sendable, CaseIterable {
        /// No route beyond this machine.
        case local
        /// Some routes, but not to the Internet.
        case limited
        /// Behind a captive portal.
        case portal
        case full
    }

    public var available: Bool
    public var metered: Bool
    public var connectivity: Connectivity

    public init(available: Bool, metered: Bool, connectivity: Connectivity) {
        self.available = available; self.metered = metered; self.connectivity = connectivity
    }

    /// What Reel assumes until (or unless) a monitor says otherwise: online, not metered.
    public static let assumed = NetworkState(available: true, metered: false, connectivity: .full)

    public var description: String { "available=\(available) metered=\(metered) connectivity=\(connectivity.rawValue)" }
}
