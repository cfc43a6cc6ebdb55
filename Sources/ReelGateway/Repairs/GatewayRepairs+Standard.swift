import Foundation
import ReelCore

extension GatewayRequestHandler {
    /// What the gateway repairs in the answers it relays, in the order they apply. A new repair
    /// is a type in `Repairs/` and a line here.
    var repairs: GatewayRepairs {
        GatewayRepairs(
            fetchedMaster: TextRepairChain(repairs: [
                VariantAvailability(probe: { url, context in await self.probeVariant(url, context) },
                                    told: { id, url, error in self.variantHandler.withLock { $0 }?(id, url, error) }),
                RenditionLanguageSeparation(),
            ]),
            servedPlaylist: TextRepairChain(repairs: [
                LiveWindowEdit(),
                PackedAudioTimes(clock: packedAudio),
                PlaylistRoutes(registry: registry, baseURL: baseURL),
            ]),
            manifest: TextRepairChain(repairs: [
                ManifestBounds(),
                ServerClock(measure: { text, context, live in
                    await self.measureClock(text, base: context.base, item: context.item, id: context.id, live: live)
                }),
                ManifestRoutes(registry: registry, baseURL: baseURL),
            ]),
            media: [
                WebVTTSegmentEnds(),
                PackedAudioTimestamps(clock: packedAudio),
            ])
    }
}
