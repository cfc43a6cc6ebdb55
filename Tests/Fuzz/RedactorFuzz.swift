#if canImport(ReelCore)
@testable import ReelCore
#endif
/// Redactor: never crashes on any text or URL, and a registered secret standing between
/// delimiters never survives redaction, whatever surrounds it.
enum RedactorFuzz {
    static let secret = "s3cr3t-T0KEN-9f8e7d"
    nonisolated(unsafe) static var registered = false

    static func run(_ bytes: [UInt8]) {
        if !registered { Redactor.register(secret: secret); registered = true }
        let text = String(decoding: bytes, as: UTF8.self)
        _ = Redactor.redactURL(text)
        _ = Redactor.redactText(text)
        _ = Redactor.redactHeader(name: "Authorization", value: text)
        let cut = text.index(text.startIndex, offsetBy: text.count / 2)
        let embedded = text[..<cut] + "&" + secret + "&" + text[cut...]
        if Redactor.redactText(String(embedded)).contains(secret) { fuzzFailure("secret survived redactText: \(embedded.debugDescription)") }
        let url = "https://example.com/p?token=" + secret + "&q=" + text
        if Redactor.redactURL(url).contains(secret) { fuzzFailure("secret survived redactURL: \(url.debugDescription)") }
        if Redactor.redactHeader(name: "Authorization", value: text + secret).contains(secret) { fuzzFailure("header value survived") }
    }
}
