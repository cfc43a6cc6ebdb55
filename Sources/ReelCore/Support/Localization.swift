import Foundation

/// Translations (gettext, as GNOME applications have them): the strings a person reads in the
/// window go through `tr`, looked up in the `reel` domain's catalogues for the user's language
/// (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`). Catalogues are po/*.po, compiled by the build
/// into .build/locale (`../../locale` from .build/<triple>/<config>/reel) and installed into $PREFIX/share/locale
/// (`../share/locale`). The event stream's codes and the socket's protocol are never translated.
public enum Localization {
    public static let domain = "reel"

    /// Binds the domain to the catalogues beside the binary (or `REEL_LOCALEDIR`) and takes the
    /// user's message language. Only LC_MESSAGES: numbers stay as GStreamer's parsers expect them
    /// (GTK takes the rest of the locale itself when a window opens).
    public static func setUp(environment: [String: String] = ProcessInfo.processInfo.environment) {
        setlocale(LC_MESSAGES, "")
        guard let directory = catalogueDirectory(environment: environment) else { return }
        _ = C.bindtextdomain?(domain, directory)
        _ = C.bindCodeset?(domain, "UTF-8")
    }

    /// glibc's gettext functions (libintl.h is not in Swift's Glibc module), found once.
    enum C {
        typealias DGettext = @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>?
        typealias Bind = @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>?
        static let dgettext: DGettext? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "dgettext").map { unsafeBitCast($0, to: DGettext.self) }
        static let bindtextdomain: Bind? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "bindtextdomain").map { unsafeBitCast($0, to: Bind.self) }
        static let bindCodeset: Bind? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "bind_textdomain_codeset").map { unsafeBitCast($0, to: Bind.self) }
    }

    /// Where the compiled catalogues are: `REEL_LOCALEDIR`, else beside the binary.
    static func catalogueDirectory(environment: [String: String]) -> String? {
        if let dir = environment["REEL_LOCALEDIR"], !dir.isEmpty { return dir }
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        // Installed: PREFIX/bin/reel; built: .build/<triple>/<config>/reel, with .build/locale.
        for candidate in ["../share/locale", "../locale", "../../locale"] {
            let dir = exe.appendingPathComponent(candidate).standardizedFileURL.path
            if FileManager.default.fileExists(atPath: dir) { return dir }
        }
        return nil
    }
}

/// The translation of `message` in the user's language (itself when there is none). gettext
/// answers an untranslated message with the pointer it was given — the C string Swift made for
/// the call, gone after it — so the answer is read inside the call, and that pointer is `message`.
public func tr(_ message: String) -> String {
    guard let dgettext = Localization.C.dgettext else { return message }
    return message.withCString { given in
        guard let answer = dgettext(Localization.domain, given), UnsafePointer(answer) != given else { return message }
        return String(cString: answer)
    }
}
