/// The user_data of the queue controller's GLib timer: a weak link, so that the timer never
/// keeps a controller alive. Read on the main thread only.
final class WeakQueueControllerRef: @unchecked Sendable {
    weak var controller: QueueController?
    init(_ controller: QueueController) { self.controller = controller }
}
