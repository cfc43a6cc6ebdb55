/// A command on the control socket (JSON lines, like mpv's `input-ipc-server`). The wire form is
/// `{"command": ["seek", 10, "absolute"], "request_id": 7}`; see `IPCRequest.parse` and
/// docs/SOCKET.md.
public enum IPCCommand: Sendable, Equatable {
    public enum SeekReference: String, Sendable {
        case relative, absolute, absolutePercent = "absolute-percent", relativePercent = "relative-percent"
    }

    /// Replace the queue with the item and play it (`["load", uri]`, mpv's `loadfile` too).
    /// A last JSON object gives the item its own options, as a playlist entry's
    /// (`{"header": ["X-Api-Key: …"]}`; see `PlaylistOptions`): an item added over the socket
    /// never gets the command line's credentials, only what it carries (`CredentialPolicy`).
    case load(String, options: [String: [String]] = [:])
    /// Add an item at the end (`["append", uri]`, or `["loadfile", uri, "append"]`).
    case append(String, options: [String: [String]] = [:])
    case play, pause, toggle, stop
    /// `["seek", value, "absolute"|"relative"|"absolute-percent"|"relative-percent" (+"exact"|"keyframes")]`;
    /// relative and exact by default.
    case seek(Double, SeekReference, SeekMode)
    /// `["skip", seconds]`: a relative, exact seek.
    case skip(Double)
    case rate(Double)
    /// 0–100.
    case volume(Double)
    /// nil toggles.
    case mute(Bool?)
    case next, previous
    case jump(Int)
    /// What to do with a given item (PRXPlayer's explicit controls): play it, load it (current,
    /// buffered, paused at its start), or toggle it (pause it when it is the playing current
    /// item, play it otherwise). `["play-item", 2]`, `["load-item", "<id>"]`, `["toggle-item", 0]`.
    public enum ItemAction: String, Sendable, CaseIterable {
        case play = "play-item", load = "load-item", toggle = "toggle-item"
    }
    /// An item by its queue index or its id (the `id` of `get_property playlist`).
    public enum ItemReference: Sendable, Equatable {
        case index(Int)
        case id(String)
    }
    case item(ItemAction, ItemReference)
    /// `["playlist-move", 0, 5]` (mpv's): item 0 takes the place of item 5 (an insertion point in
    /// the queue as it was: `count` moves it to the end).
    case move(from: Int, to: Int)
    /// `["playlist-remove", 3]` or `["playlist-remove", "current"]` (mpv's).
    case remove(Int?)
    /// What a screenshot shows: the video frame, or the window as the user sees it.
    public enum CaptureSource: String, Sendable {
        case video, window
    }

    /// `["screenshot"]` into the screenshot directory with the capture template,
    /// `["screenshot", "/abs/file.png"]`, and either with a last `"video"` (default) or `"window"`.
    case screenshot(path: String?, source: CaptureSource)
    case quit(Int32)
    case getProperty(String)
    /// mpv's `get_property_string`: the value as text (a number with six decimals, yes/no).
    case getPropertyString(String)
    case setProperty(String, JSONValue)
    /// mpv's property commands, as input.conf binds them: `["cycle", "pause"]` (a flag flipped,
    /// a choice to its next value, `"down"` to its previous), `["add", "volume", 2]` (a number
    /// by a step; 1 when none), `["cycle-values", "aspect", "fit", "fill"]` (the value after the
    /// current one in the list, the first when it is not there). `["set", p, v]` is `set_property`.
    case cycle(String, backwards: Bool)
    /// nil: the property's own step (`NumberSpec.step`; 1 for most).
    case add(String, Double?)
    /// `["multiply", "volume", 0.5]`: a number by a factor (mpv's `multiply`), bounded as `add`.
    case multiply(String, Double)
    case cycleValues(String, [JSONValue])
    /// A command of the connection itself (mpv's `client_name`, `get_version`,
    /// `observe_property`, `unobserve_property`, …): answered by whoever holds the connection
    /// (`IPCConnection`), not by the player.
    case connection(String, [JSONValue])
    /// A command a component registered with the dispatcher (`IPCDispatcher.register`), such as
    /// `reel review`'s `verdict` and `mark`: its name and its arguments as given.
    case registered(String, [JSONValue])

    public var name: String {
        switch self {
        case .load: "load"
        case .append: "append"
        case .play: "play"
        case .pause: "pause"
        case .toggle: "toggle"
        case .stop: "stop"
        case .seek: "seek"
        case .skip: "skip"
        case .rate: "rate"
        case .volume: "volume"
        case .mute: "mute"
        case .next: "next"
        case .previous: "previous"
        case .jump: "jump"
        case .item(let action, _): action.rawValue
        case .move: "playlist-move"
        case .remove: "playlist-remove"
        case .screenshot: "screenshot"
        case .quit: "quit"
        case .getProperty: "get_property"
        case .getPropertyString: "get_property_string"
        case .setProperty: "set_property"
        case .cycle: "cycle"
        case .add: "add"
        case .multiply: "multiply"
        case .cycleValues: "cycle-values"
        case .connection(let name, _): name
        case .registered(let name, _): name
        }
    }

    /// Every command name the parser accepts (aliases included); components register the rest
    /// (`IPCCommandRegistry`: `frame-step`, `sub-add`, `ab-loop`, `playlist-clear`, `keybind`, …).
    public static let names = ["load", "loadfile", "append", "play", "pause", "toggle", "cycle-pause", "stop", "seek", "skip", "rate",
                               "volume", "mute", "next", "playlist-next", "previous", "playlist-prev", "jump", "play-item", "load-item", "toggle-item", "playlist-move", "playlist-remove", "screenshot",
                               "screenshot-to-file", "quit", "get_property", "get_property_string", "set_property", "set_property_string", "set", "cycle", "add", "multiply", "cycle-values"]
        + connectionNames

    /// The connection's own commands (mpv's ipc.rst), answered by the connection (`IPCConnection`).
    public static let connectionNames = ["client_name", "get_version", "get_time_us", "observe_property", "observe_property_string", "unobserve_property",
                                         "request_log_messages", "enable_event", "disable_event"]
}
