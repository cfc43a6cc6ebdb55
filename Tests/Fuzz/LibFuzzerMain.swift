// libFuzzer's entry for ReelCore (Resources/scripts/fuzz.sh only): REEL_FUZZ_TARGET picks one
// of `FuzzTargets.all` at start-up.
import Foundation

extension FuzzTargets {
    static let selected: @Sendable ([UInt8]) -> Void = {
        let name = ProcessInfo.processInfo.environment["REEL_FUZZ_TARGET"] ?? ""
        guard let target = all[name] else {
            FileHandle.standardError.write(Data("REEL_FUZZ_TARGET must be one of: \(all.keys.sorted().joined(separator: ", "))\n".utf8))
            exit(2)
        }
        return target
    }()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzTargets.selected(bytes)
    return 0
}
