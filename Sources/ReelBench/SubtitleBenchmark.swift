import Foundation
import ReelCore

/// Subtitle parse throughput (`SubtitleFile.parse`, what the overlay reads): a film-shaped SRT,
/// WebVTT and ASS of `megabytes` MB each, and the review's hostile shapes of `hostile` KB (one
/// cue then thousands of blank lines; thousands of `<` in one SRT cue; thousands of `{` in one
/// ASS line; thousands of `<rt>` without an end). A linear parser reads each at a similar MB/s.
enum SubtitleBenchmark {
    static func run(_ args: BenchArguments) -> Int32 {
        let megabytes = args.int("megabytes", default: 13)
        let hostile = args.int("hostile", default: 20)
        let runs = max(1, args.int("runs", default: 3))
        var lanes: [(String, JSONValue)] = []
        for (name, file, text) in inputs(megabytes: megabytes, hostileKB: hostile) {
            let bytes = Array(text.utf8)
            let result = PlaylistBenchmark.measure(runs: runs, bytes: bytes.count) {
                switch SubtitleFile.parse(bytes, fileName: file) {
                case .success(let timeline): return timeline.cues.count
                case .failure(let error): throw PlaylistBenchmark.Failed(reason: "\(name): \(error.message)")
                }
            }
            lanes.append((name, .object([("bytes", .int(bytes.count)), ("result", result)])))
        }
        BenchOutput.print(["status": .string("ok"), "files": .object(lanes)])
        return 0
    }

    static func timestamp(_ seconds: Int, _ separator: String) -> String {
        String(format: "%02d:%02d:%02d%@000", seconds / 3600, seconds / 60 % 60, seconds % 60, separator)
    }

    /// (lane, file name, text).
    static func inputs(megabytes: Int, hostileKB: Int) -> [(String, String, String)] {
        let size = megabytes * 1_000_000, small = hostileKB * 1000
        var srt = "", vtt = "WEBVTT\n\n", ass = "[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
        var i = 0
        while srt.utf8.count < size {
            i += 1
            srt += "\(i)\n\(timestamp(3 * i, ",")) --> \(timestamp(3 * i + 2, ",")) X1:10 X2:20\n<i>Line \(i) of the film</i>, with <font color=\"#ffff00\">colour</font>\nand a second line\n\n"
        }
        for j in 1...i {
            vtt += "c\(j)\n\(timestamp(3 * j, ".")) --> \(timestamp(3 * j + 2, ".")) line:90% align:center\n<v Anna>Line \(j) of the &amp; film</v>\n<c.yellow>and a second line</c>\n\n"
            ass += "Dialogue: 0,\(timestamp(3 * j, ".").dropFirst().dropLast()),\(timestamp(3 * j + 2, ".").dropFirst().dropLast()),Default,,0,0,0,,{\\i1}Line \(j){\\i0} of the film\\Nand a second line\n"
        }
        let cue = "1\n00:00:01,000 --> 00:00:02,000\n"
        let assHead = "[Script Info]\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,"
        return [
            ("srt", "film.srt", srt), ("webvtt", "film.vtt", vtt), ("ass", "film.ass", ass),
            ("srt-blank-lines", "blank.srt", cue + "Hello\n" + String(repeating: "\n", count: small) + "world\n"),
            ("srt-open-angles", "angles.srt", cue + String(repeating: "<", count: small) + "\n"),
            ("srt-open-braces", "braces.srt", cue + String(repeating: "{\\", count: small / 2) + "\n"),
            ("vtt-ruby-without-end", "ruby.vtt", "WEBVTT\n\n00:01.000 --> 00:02.000\n" + String(repeating: "x<rt>", count: small / 5) + "\n"),
            ("vtt-open-entities", "amp.vtt", "WEBVTT\n\n00:01.000 --> 00:02.000\n" + String(repeating: "&", count: small) + "\n"),
            ("ass-open-braces", "braces.ass", assHead + String(repeating: "{", count: small) + "x\n"),
        ]
    }
}
