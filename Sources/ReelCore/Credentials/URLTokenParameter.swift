import Foundation

/// Seed 000's event URLs: a stream URL that carries its token as an `Authorization` query
/// parameter. When no token source is given, Reel takes the token out of the URL and sends it
/// as the token (header and/or query, per `--token-placement`) on every request of the stream,
/// to the stream's own origin only.
public enum URLTokenParameter {
    /// `uri` without its `Authorization` query parameter(s) (the other parameters kept as
    /// written, in order), and the first one's value (percent-decoded); nil when there is none or
    /// it is empty.
    public static func extract(from uri: String) -> (uri: String, token: String)? {
        guard let q = uri.firstIndex(of: "?") else { return nil }
        let fragmentStart = uri[q...].firstIndex(of: "#")
        let query = uri[uri.index(after: q)..<(fragmentStart ?? uri.endIndex)]
        var token: String?
        var kept: [Substring] = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: false) {
            let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            if name == TokenPlacement.parameterName {
                if token == nil {
                    let value = pair.dropFirst(name.count + 1)
                    token = String(value).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(value)
                }
            } else {
                kept.append(pair)
            }
        }
        guard let token, !token.isEmpty else { return nil }
        let base = String(uri[..<q])
        let rest = kept.isEmpty ? "" : "?" + kept.joined(separator: "&")
        return (base + rest + (fragmentStart.map { String(uri[$0...]) } ?? ""), token)
    }
}
