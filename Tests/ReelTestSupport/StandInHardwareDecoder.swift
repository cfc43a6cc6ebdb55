import Foundation
import Synchronization

/// Reel's stand-in "hardware" H.264 decoder (Resources/test-elements/reelstandinhwdec.c): a
/// GStreamer plugin whose one element says "Codec/Decoder/Video/Hardware", has rank none (as
/// GStreamer 1.22 registers the VA decoders), opens its "device" unless
/// `REEL_STANDIN_HWDEC_NO_DEVICE` is set, and fails on its first frame. Built once per test
/// process with cc (no GPU is needed, and nothing of it reaches the product).
public enum StandInHardwareDecoder {
    public static let factoryName = "reelstandinh264dec"
    /// Set in the environment: the stand-in cannot open its device (its READY fails).
    public static let noDeviceVariable = "REEL_STANDIN_HWDEC_NO_DEVICE"

    private static let built = Mutex<URL?>(nil)

    /// The directory holding only the plugin (for `GST_PLUGIN_PATH`); built on first use.
    public static func pluginDirectory() throws -> URL {
        try built.withLock { dir in
            if let dir { return dir }
            let out = TestMedia.temporaryDirectory("reel-standin-hwdec")
            let source = TestMedia.packageRoot.appendingPathComponent("Resources/test-elements/reelstandinhwdec.c").path
            let flags = ProcessRunner.run("/usr/bin/pkg-config", ["--cflags", "--libs", "gstreamer-1.0"], timeout: 30)
            guard flags.status == 0 else { throw Failure(message: "pkg-config gstreamer-1.0: \(flags.stderr)") }
            let library = out.appendingPathComponent("libreelstandinhwdec.so").path
            let args = ["-shared", "-fPIC", "-o", library, source] + flags.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
            let cc = ProcessRunner.run("/usr/bin/cc", args, timeout: 120)
            guard cc.status == 0 else { throw Failure(message: "cc: \(cc.stderr)") }
            dir = out
            return out
        }
    }

    /// The plugin file.
    public static func pluginPath() throws -> String { try pluginDirectory().appendingPathComponent("libreelstandinhwdec.so").path }

    /// The environment for a `reel` run that has the stand-in in its registry: the plugin's
    /// directory, and a registry file of the run's own (the user's cache is not touched). The
    /// device variable is always given ("0": a device), since a child inherits this process's
    /// environment, where the in-process tests leave it set.
    public static func environment(device: Bool = true) throws -> [String: String] {
        let dir = try pluginDirectory()
        return ["GST_PLUGIN_PATH": dir.path, "GST_REGISTRY": dir.appendingPathComponent("registry.bin").path,
                noDeviceVariable: device ? "0" : "1"]
    }

    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }
}
