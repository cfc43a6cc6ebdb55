import ArgumentParser
import ReelCore

/// `--token-placement header|query|both`.
enum TokenPlacementArgument: String, ExpressibleByArgument, CaseIterable {
    case header, query, both
    var value: TokenPlacement { TokenPlacement(rawValue: rawValue)! }
}
