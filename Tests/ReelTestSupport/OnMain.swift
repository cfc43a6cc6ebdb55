/// Runs a test body on the main actor. XCTest on Linux runs test methods on the main thread but
/// cannot discover `@MainActor` test classes (it aborts with a failed cast), so test classes stay
/// nonisolated and wrap their bodies: `func testX() throws { try onMain { … } }`.
public func onMain<T: Sendable>(_ body: @MainActor () throws -> T) rethrows -> T {
    try MainActor.assumeIsolated(body)
}
