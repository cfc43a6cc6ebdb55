/// Why no token could be had. Never contains a token.
public enum TokenError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidDocument(String)
    case noToken(bucket: String)
    case bucketRequired(available: [String])
    case expired(bucket: String)
    case unreadable(source: String, reason: String)

    public var description: String {
        switch self {
        case .invalidDocument(let why): "The token document is invalid: \(why)."
        case .noToken(let bucket): "No token for bucket '\(bucket)'."
        case .bucketRequired(let available): "Choose a bucket (--bucket): the tokens are for \(available.isEmpty ? "no bucket" : available.joined(separator: ", "))."
        case .expired(let bucket): "Every token for bucket '\(bucket)' has expired."
        case .unreadable(let source, let reason): "The tokens could not be read from \(Redactor.redactURL(source)): \(reason)."
        }
    }
}
