import Foundation

// Web pages that hold a video (`PageResolving`): the refused page is looked up and replaced by
// what it holds, the first entry keeping the item's place and id, a playlist's others after it.
extension QueueSequencer {
    /// The current item, when the engine refused it as a web page and the resolver looks it up (an
    /// item that is itself a page's video is never looked up again).
    func resolvesPage(_ error: PlaybackError) -> QueueItem? {
        guard error.refusedContent == .webPage, let resolver = pageResolver, let id = eventItemID, id == queue.currentID,
              let item = queue.item(id), item.options["page"] == nil, resolver.resolves(item) else { return nil }
        return item
    }

    func resolvePage(after error: PlaybackError) {
        guard let item = resolvesPage(error), let resolver = pageResolver else { return }
        Log.debug(.queue, .info, "\(Redactor.redactURL(item.uri)) is a web page: asking yt-dlp what it holds")
        resolver.resolve(item) { [weak self] result in
            guard let self, self.queue.currentID == item.id else { return }  // the user went elsewhere meanwhile
            switch result {
            case .success(let found) where !found.isEmpty:
                var first = found[0]
                first = QueueItem(id: item.id, uri: first.uri, title: first.title ?? item.title, duration: first.duration,
                                  options: item.options.merging(first.options) { $1 }, state: .current, arrival: item.arrival)
                let rest = found.dropFirst().map { QueueItem(uri: $0.uri, title: $0.title, duration: $0.duration, options: $0.options, arrival: item.arrival) }
                self.registerSecrets([first] + rest)
                self.releaseRouting(item.id)
                self.queue.replace(id: item.id, with: first)
                self.queue.insert(rest, after: item.id)
                Log.debug(.queue, .info, "the page holds \(found.count) item(s): playing \(Redactor.redactURL(first.uri))")
                self.loadCurrent()
            case .success:
                self.failResolved(item, PlaybackError(kind: .unsupportedFormat, message: "yt-dlp found no video on the page", uri: item.uri))
            case .failure(let failure):
                self.failResolved(item, failure)
            }
        }
    }

    private func failResolved(_ item: QueueItem, _ failure: PlaybackError) {
        eventItemID = item.id
        emit(.error(failure), item: eventIndex)
        failedCount += 1
        advance(.failed(failure))
    }
}
