/// How the current item of a queue ended.
public enum ItemOutcome: Sendable, Equatable {
    case played
    case failed(PlaybackError)
}
