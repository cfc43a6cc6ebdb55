/// Whether the current item can play (AVPlayerItem.Status).
public enum ItemStatus: Sendable, Equatable {
    case unknown
    case readyToPlay
    case failed(PlaybackError)

    public var name: String {
        switch self {
        case .unknown: "unknown"
        case .readyToPlay: "readyToPlay"
        case .failed: "failed"
        }
    }
}

/// Why playback is not advancing although the user asked it to.
public enum WaitReason: Sendable, Equatable {
    case noItem
    case loading
    case buffering(percent: Int)
    case seeking
    /// A network item waits for the network to come back (`NetworkRule`).
    case noNetwork

    public var name: String {
        switch self {
        case .noItem: "noItem"
        case .loading: "loading"
        case .buffering: "buffering"
        case .seeking: "seeking"
        case .noNetwork: "noNetwork"
        }
    }
}

/// AVPlayer.TimeControlStatus with reasons.
public enum TimeControlStatus: Sendable, Equatable {
    /// Stopped by the user (`stop`): at the start of the item, which stays loaded.
    case stopped
    case paused
    case waitingToPlayAtSpecifiedRate(WaitReason)
    case playing

    public var name: String {
        switch self {
        case .stopped: "stopped"
        case .paused: "paused"
        case .waitingToPlayAtSpecifiedRate: "waiting"
        case .playing: "playing"
        }
    }

    public var isWaiting: Bool { if case .waitingToPlayAtSpecifiedRate = self { true } else { false } }
}

/// What the player does when an item plays to its end.
public enum EndAction: String, Sendable, CaseIterable, Codable {
    /// Stay on the last frame, paused (a second play replays from the start).
    case pause
    /// Seek back to the start and keep playing.
    case replay
    /// Hand over to the next item (the queue decides which).
    case advance
}

/// How a seek lands.
public enum SeekMode: String, Sendable, Codable {
    /// Snap to the nearest keyframe before the target: fast.
    case keyframe
    /// Land exactly on the target: decodes from the keyframe.
    case accurate
}

/// The user's intent, kept apart from what the pipeline is doing (gst-play.c's `desired_state`).
public enum PlayIntent: Sendable, Equatable {
    case stopped, paused, playing
}

/// The pipeline states the engine chooses between.
public enum PipelineTarget: Sendable, Equatable {
    case null, ready, paused, playing
}
