/// Collects a parser's diagnostics up to a bound, then counts the rest in one summary line.
struct DiagnosticsBuilder {
    private(set) var list: [PlaylistDiagnostic] = []
    private var dropped = 0

    mutating func add(_ line: Int?, _ message: String) {
        if list.count < PlaylistText.maxDiagnostics {
            list.append(PlaylistDiagnostic(line: line, message: message))
        } else {
            dropped += 1
        }
    }

    var diagnostics: [PlaylistDiagnostic] {
        dropped == 0 ? list : list + [PlaylistDiagnostic(line: nil, message: "\(dropped) more problems not listed")]
    }
}
