import Foundation
import ReelCore
import ReelEngine
import ReelGLib

/// One checked item's renditions, as a session's quality control sees them but without its rule
/// (a check plays what the demuxer chooses unless a scenario pins one): the master's variants as
/// the gateway serves it, the `rendition` events from what the player fetches (`RenditionReport`),
/// which feed the QoE's switches and time-weighted bitrate, and a scenario's `quality` choice
/// given to the demuxer as a session gives it (`RenditionSelector`, `DemuxerBitrateWindow`).
@MainActor
final class CheckRenditions {
    private let router: GatewayRouter
    /// Set once the item's player is made (after the probe, whose fetch of the master is the one
    /// the gateway announces the renditions at: the hooks are in place before it).
    var player: Player?
    private let id = UUID()
    private(set) var renditions: [HLSVariant] = []
    private var report = RenditionReport()
    private(set) var pinned: Int?
    /// Told every rendition event.
    var onEvent: (PlayerEvent) -> Void = { _ in }

    init(router: GatewayRouter, playURI: String) {
        self.router = router
        router.bind(id, routedURI: playURI)
        let id = self.id
        router.onRenditions.withLock {
            $0 = { [weak self] item, variants, done in
                MainQueue.shared.async {
                    MainActor.assumeIsolated { if item == id { self?.found(variants) } }
                    done()
                }
            }
        }
        router.onVariantFetched.withLock {
            $0 = { [weak self] item, variant in
                guard item == id else { return }
                MainQueue.shared.async { MainActor.assumeIsolated { self?.fetched(variant) } }
            }
        }
    }

    /// The item routed again (told by its bytes to be a manifest): bound under its new URI.
    func rebind(_ playURI: String) { router.bind(id, routedURI: playURI) }

    /// The hooks off again (the next item sets its own).
    func stop() {
        router.onRenditions.withLock { $0 = nil }
        router.onVariantFetched.withLock { $0 = nil }
    }

    var topBandwidth: Int? { renditions.compactMap(\.bandwidth).max() }

    private func found(_ variants: [HLSVariant]) {
        renditions = variants
    }

    private func fetched(_ uri: String) {
        guard let said = report.fetched(item: id.uuidString, uri: uri, renditions: renditions) else { return }
        say(said.index, reason: said.reason)
    }

    private func say(_ index: Int?, reason: String) {
        let v = index.flatMap { renditions.indices.contains($0) ? renditions[$0] : nil }
        onEvent(.rendition(index: index, height: v?.resolution?.height, bandwidth: v?.bandwidth, mode: pinned == nil ? "auto" : "manual", reason: reason))
    }

    /// A scenario's `quality`: the demuxer held to that rendition's bitrate (auto: let go).
    /// Throws when the item has no renditions or none answers the choice.
    func choose(_ choice: QualityChoice) throws {
        guard let player, !renditions.isEmpty else { throw IPCError(.unavailable, "The item has no renditions (not an HLS master or DASH MPD through the gateway).") }
        let limits = RenditionSelector.limits(choice, renditions: renditions, cap: nil)
        if choice.isManual, limits.pinned == nil { throw IPCError(.unavailable, "No rendition is \(choice) (the item has \(renditions.map(RenditionSelector.label).joined(separator: ", ")))") }
        pinned = limits.pinned
        let window = DemuxerBitrateWindow.window(limits, renditions: renditions)
        player.bitrateFloor = window.floor
        player.bitrateCap = window.cap
        if let said = report.decided(item: id.uuidString, target: limits.pinned, reason: "manual", mode: choice.isManual ? "manual" : "auto", renditions: renditions) {
            say(said.index, reason: said.reason)
        }
    }

    /// The rendition playing, by the fetches.
    var playing: Int? { report.playing(in: renditions) }
}
