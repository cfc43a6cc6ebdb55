import Foundation

/// Gives freed heap memory back to the system (glibc's `malloc_trim`), after a burst of transient
/// allocations on another thread (a big playlist's read: its text and its whole list, in that
/// thread's malloc arena, which glibc otherwise keeps: 100,000 entries left about 20 MB).
/// `malloc_trim` is not in the Glibc module's headers: it is looked up by name; without it,
/// nothing is done.
enum MemoryTrim {
    private typealias Trim = @convention(c) (Int) -> Int32
    private static let trim: Trim? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim").map { unsafeBitCast($0, to: Trim.self) }

    static func giveBack() { _ = trim?(0) }
}
