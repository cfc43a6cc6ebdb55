import Foundation

/// A one-shot value handed from a task to a blocked synchronous caller.
final class BlockingBox<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Value?

    func put(_ v: Value) {
        condition.lock()
        value = v
        condition.signal()
        condition.unlock()
    }

    func take() -> Value {
        condition.lock()
        defer { condition.unlock() }
        while value == nil { condition.wait() }
        return value!
    }
}
