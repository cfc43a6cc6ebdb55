import ArgumentParser
import ReelCore

/// `--metered allow|cap|block`.
extension MeteredPolicy: ExpressibleByArgument {}
