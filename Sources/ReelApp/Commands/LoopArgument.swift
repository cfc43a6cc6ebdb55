import ArgumentParser
import ReelCore

/// `--loop=none|one|all`.
enum LoopArgument: String, ExpressibleByArgument, CaseIterable {
    case none, one, all
    var value: RepeatMode {
        switch self {
        case .none: .off
        case .one: .one
        case .all: .all
        }
    }
}
