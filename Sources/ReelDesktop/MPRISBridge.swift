/// The user_data of GDBus callbacks: a weak link to the service (no captured context).
final class MPRISBridge: @unchecked Sendable {
    weak var service: MPRISService?
    init(service: MPRISService) { self.service = service }
}
