import Foundation

/// Reads PLS (`[playlist]`, `FileN=`, `TitleN=`, `LengthN=`, `NumberOfEntries=`, `Version=`).
/// Keys are case-insensitive; entries are ordered by N; `;` and `#` start comments.
///
/// Diagnostics (with line numbers): a missing `[playlist]` header (the keys still load), lines
/// without `=`, unknown keys, bad or repeated numbers, titles or lengths with no file, a wrong
/// `NumberOfEntries`, and entries that cannot be resolved.
public enum PLSParser {
    public static func parse(text: String, location: URL) -> PlaylistParseResult {
        var result = PlaylistParseResult(format: .pls)
        var builder = DiagnosticsBuilder()
        struct Entry { var file: String?; var fileLine = 0; var title: String?; var length: Double?; var firstLine = 0 }
        var entries: [Int: Entry] = [:]
        var sawHeader = false   // found, or already reported missing
        var foundHeader = false
        var inPlaylistSection = true
        var declaredCount: (Int, Int)?  // (count, line)

        for (number, rawLine, tooLong) in PlaylistText.lines(text) {
            if tooLong { builder.add(number, String(format: tr("longer than %@ KiB; skipped"), "\(PlaylistText.maxLineBytes >> 10)")); continue }
            let line = rawLine.trimmingPlaylistSpaces()
            if line.isEmpty || line.hasPrefix(";") || line.hasPrefix("#") { continue }
            if PlaylistText.hasControlCharacters(Substring(line)) { builder.add(number, tr("binary data in the line; skipped")); continue }
            if line.hasPrefix("[") {
                inPlaylistSection = line.lowercased() == "[playlist]"
                if inPlaylistSection { sawHeader = true; foundHeader = true } else { builder.add(number, String(format: tr("section %@ is not [playlist]; its keys are ignored"), "\(line.prefix(40))")) }
                continue
            }
            guard inPlaylistSection else { continue }
            if !sawHeader {
                builder.add(number, tr("missing [playlist] header"))
                sawHeader = true
            }
            guard let eq = line.firstIndex(of: "=") else {
                builder.add(number, tr("expected Key=Value"))
                continue
            }
            let key = line[..<eq].trimmingPlaylistSpaces().lowercased()
            let value = line[line.index(after: eq)...].trimmingPlaylistSpaces()
            if key == "numberofentries" {
                if let n = Int(value), n >= 0 { declaredCount = (n, number) } else { builder.add(number, String(format: tr("NumberOfEntries “%@” is not a number"), "\(value.prefix(20))")) }
                continue
            }
            if key == "version" { continue }
            let prefix = ["file", "title", "length"].first { key.hasPrefix($0) }
            guard let prefix else { builder.add(number, String(format: tr("unknown key “%@”; ignored"), "\(key.prefix(40))")); continue }
            guard let n = Int(key.dropFirst(prefix.count)), n >= 0 else {
                builder.add(number, String(format: tr("“%@” has no entry number"), "\(key.prefix(40))"))
                continue
            }
            if entries.count >= PlaylistText.maxEntries && entries[n] == nil {
                builder.add(number, String(format: tr("more than %@ entries; the rest were ignored"), "\(PlaylistText.maxEntries)"))
                break
            }
            var entry = entries[n] ?? Entry(firstLine: number)
            switch prefix {
            case "file":
                if entry.file != nil { builder.add(number, String(format: tr("File%@ appears twice; the first one is kept"), "\(n)")); continue }
                entry.file = value
                entry.fileLine = number
            case "title":
                entry.title = value.isEmpty ? nil : value
            default:
                if let d = Double(value), d.isFinite { entry.length = d > 0 ? d : nil } else { builder.add(number, String(format: tr("Length%@ “%@” is not a number"), "\(n)", "\(value.prefix(20))")) }
            }
            entries[n] = entry
        }
        if !foundHeader && entries.isEmpty {
            builder.add(nil, tr("no [playlist] section and no entries: not a PLS playlist"))
        }
        for n in entries.keys.sorted() {
            let entry = entries[n]!
            guard let file = entry.file else {
                builder.add(entry.firstLine, String(format: tr("Title%@/Length%@ without File%@"), "\(n)", "\(n)", "\(n)"))
                continue
            }
            switch PlaylistEntryResolver.resolve(file, base: location, isURIReference: false) {
            case .success(let uri): result.items.append(QueueItem(uri: uri, title: entry.title, duration: entry.length))
            case .failure(.message(let message)): builder.add(entry.fileLine, message)
            }
        }
        if let (count, line) = declaredCount, count != entries.values.filter({ $0.file != nil }).count {
            builder.add(line, String(format: tr("NumberOfEntries says %@ but the file has %@"), "\(count)", "\(entries.values.filter { $0.file != nil }.count)"))
        }
        result.diagnostics = builder.diagnostics
        return result
    }
}
