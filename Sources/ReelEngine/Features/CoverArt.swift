import Foundation
import ReelCore

/// The current item's own picture (an audio file's cover art): the first picture its tags carry,
/// as the file holds it (JPEG, PNG …), for the window and MPRIS.
@MainActor
final class CoverArt: PlayerFeature {
    private(set) var picture: Data?

    func readout(into snapshot: inout PlaybackSnapshot, host: FeatureHost) { snapshot.coverArt = picture }
    func itemStarted(_ item: PlaybackItem, switched: Bool, host: FeatureHost) { picture = nil }

    func tags(_ tags: ItemTags, host: FeatureHost) {
        guard picture == nil, let found = tags.picture() else { return }
        Log.debug(.engine, .debug, "cover art: \(found.count) bytes from the item's tags")
        picture = found
    }
}

extension Player {
    /// The current item's own picture (an audio file's cover art, from its tags), as the file
    /// holds it; nil when it has none.
    public var coverArt: Data? { features.first(CoverArt.self)?.picture }
}
