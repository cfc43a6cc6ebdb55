import Foundation

/// A real PulseAudio server for a test, private to it: its own runtime directory and socket, a
/// null sink (no sound card needed), anonymous access, and the modules a test asks for (say
/// `module-role-cork`). Clients reach it through `environment` (PULSE_SERVER); `pactl` runs
/// against it. Installed by setup.sh (pulseaudio, pulseaudio-utils).
public final class PulseAudioServer {
    public let directory: URL
    public let socket: String

    public enum Failure: Error, CustomStringConvertible {
        case notInstalled, didNotStart(String)
        public var description: String {
            switch self {
            case .notInstalled: "pulseaudio is not installed: run Resources/scripts/setup.sh"
            case .didNotStart(let log): "pulseaudio did not start: \(log)"
            }
        }
    }

    /// Started as a daemon (`-D`: the command returns once the server is up). Not as a child
    /// that Foundation watches: pulseaudio closes every inherited descriptor at start, and
    /// Foundation's Process takes that for the child's exit and blocks its reaper thread in
    /// waitpid, so no other child process of the test is ever seen to end.
    public init(modules: [String] = []) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio"), FileManager.default.isExecutableFile(atPath: "/usr/bin/pactl") else {
            throw Failure.notInstalled
        }
        directory = TestMedia.temporaryDirectory("reel-pulse")
        socket = directory.appendingPathComponent("native").path
        var arguments = ["-D", "-n", "--exit-idle-time=-1", "--use-pid-file=yes", "--disable-shm=yes",
                         "--log-target=file:" + directory.appendingPathComponent("log").path,
                         "-L", "module-null-sink sink_name=reel_test_sink", "-L", "module-native-protocol-unix auth-anonymous=1 socket=\(socket)"]
        for module in modules { arguments += ["-L", module] }
        let started = ProcessRunner.run("/usr/bin/pulseaudio", arguments, timeout: 20, environment: daemonEnvironment)
        guard started.status == 0, pactl(["info"]).status == 0 else {
            let log = (try? String(contentsOf: directory.appendingPathComponent("log"), encoding: .utf8)) ?? ""
            throw Failure.didNotStart(started.stderr + log)
        }
    }

    /// The daemon's own home and runtime directory (its pid file, config and cookie go there).
    private var daemonEnvironment: [String: String] {
        let home = directory.path
        return ["HOME": home, "XDG_RUNTIME_DIR": home, "XDG_CONFIG_HOME": home + "/config", "PULSE_SERVER": ""]
    }

    /// What a client needs to use this server (and only it).
    public var environment: [String: String] { ["PULSE_SERVER": "unix:" + socket] }

    /// `pactl` against this server.
    public func pactl(_ arguments: [String]) -> ProcessRunner.Result {
        ProcessRunner.run("/usr/bin/pactl", arguments, timeout: 10, environment: environment)
    }

    /// The playing streams' properties (`pactl list sink-inputs`): one dictionary per stream,
    /// with "Corked" ("yes"/"no") beside its properties ("media.role", "application.name", …).
    public func sinkInputs() -> [[String: String]] {
        var streams: [[String: String]] = []
        for line in pactl(["list", "sink-inputs"]).lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("Sink Input #") { streams.append([:]); continue }
            guard !streams.isEmpty else { continue }
            if trimmed.hasPrefix("Corked:") { streams[streams.count - 1]["Corked"] = String(trimmed.dropFirst(7)).trimmingCharacters(in: .whitespaces) }
            if let eq = trimmed.range(of: " = \"") , trimmed.hasSuffix("\"") {
                let key = String(trimmed[..<eq.lowerBound]), value = String(trimmed[eq.upperBound...].dropLast())
                streams[streams.count - 1][key] = value
            }
        }
        return streams
    }

    public func stop() {
        _ = ProcessRunner.run("/usr/bin/pulseaudio", ["--kill"], timeout: 10, environment: daemonEnvironment)
        try? FileManager.default.removeItem(at: directory)
    }
}
