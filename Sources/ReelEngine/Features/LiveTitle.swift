import ReelCore

/// A live stream's title is what plays now (an internet radio's ICY StreamTitle, ID3 in live
/// HLS): said as it changes, for the window and MPRIS, as mpv's media-title and Totem do, and at
/// most once a second (`TitleRateLimit`: a title in every ICY block once made ~1,000 media-info
/// events a second). A file's tags have all come by its preroll: they are not said again.
/// (The title itself is the player's media info: `Player.onTag` keeps it.)
@MainActor
final class LiveTitle: PlayerFeature {
    private var limit = TitleRateLimit()
    private var last: String?

    func itemStarted(_ item: PlaybackItem, switched: Bool, host: FeatureHost) {
        limit = TitleRateLimit()
        last = nil
    }

    func tags(_ tags: ItemTags, host: FeatureHost) {
        guard let title = tags.title else { return }
        defer { last = title }
        guard host.isPrerolled, host.mediaInfo.isLive, title != last else { return }
        if limit.offer(title, now: host.now) != nil {
            Log.debug(.engine, .info, "live title changed")
            host.sayMediaInfo()
        }
    }

    func tick(host: FeatureHost) {
        if limit.due(now: host.now) != nil { host.sayMediaInfo() }
    }
}
