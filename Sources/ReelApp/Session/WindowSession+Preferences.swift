import Foundation
import ReelCore
import ReelUI

/// The preferences window's road (Ctrl+,): what it shows is what is in force, and each change
/// goes into reel.conf (`ConfigText`) and, where the player has the setting, onto the property road.
extension WindowSession {
    /// reel.conf, where the preferences window writes.
    private var configPath: String { ConfigFile.defaultPath(environment: ProcessInfo.processInfo.environment) }

    private var configText: String {
        let facts = LocalFileFacts(path: configPath)
        guard facts.kind == .regular, (facts.size ?? 0) <= Int64(ConfigFile.maxBytes), let data = FileManager.default.contents(atPath: configPath) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    /// What is in force: the player's own settings from the player, the rest from reel.conf (or
    /// Reel's defaults).
    var preferences: Preferences {
        let text = configText
        func number(_ property: String) -> Double? { (try? dispatcher.properties.get(property))?.ipcNumber }
        var p = Preferences()
        p.hardwareDecoding = state.hardwareDecoding == .auto
        p.metered = state.meteredPolicy
        p.subtitleScale = number("sub-scale") ?? 1
        p.volumeMax = number("volume-max") ?? 130
        p.autoload = ConfigText.value(of: "autoload", in: text) != "no"
        p.resume = ConfigText.value(of: "resume", in: text) != "no"
        p.audioLanguages = ConfigText.value(of: "alang", in: text) ?? ""
        p.subtitleLanguages = ConfigText.value(of: "slang", in: text) ?? ""
        p.oneWindow = ConfigText.value(of: "new-window", in: text) != "yes"
        return p
    }

    /// A preference changed: into reel.conf (its other lines and comments kept; a new file is
    /// 0600, an existing one keeps its mode), and at once into the player where it has the setting.
    func setPreference(_ key: String, _ value: String) {
        let path = configPath
        let existing = (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int).map { mode_t($0) }
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try PrivateFile.write(Data(ConfigText.setting(key, to: value, in: configText).utf8), to: path, mode: existing ?? 0o600)
        } catch {
            Diagnostics.say("reel.conf: \(path): \(error)")
        }
        let property: String? = switch key {
        case "hwdec": "hwdec"
        case "metered": "metered-policy"
        case "sub-scale": "sub-scale"
        case "volume-max": "volume-max"
        default: nil
        }
        if let property { run(.setProperty(property, Double(value).map { .double($0) } ?? .string(value))) }
    }
}
