import Foundation

/// Renders a `CheckReport` as a self-contained index.html (no scripts, no remote resources).
/// Every string from media or the command line is escaped.
public enum CheckReportHTML {
    public static func escape(_ s: String) -> String { XMLText.escape(s) }

    /// A relative file name as an href: escaped, with characters that would change its meaning
    /// percent-encoded.
    static func href(_ file: String) -> String {
        var out = ""
        for u in file.unicodeScalars {
            if (u.value < 128 && (u.properties.isAlphabetic || ("0"..."9").contains(u))) || "-_.~/".unicodeScalars.contains(u) {
                out.unicodeScalars.append(u)
            } else {
                for b in String(u).utf8 { out += "%" + String(b, radix: 16, uppercase: true).leftPadded(2) }
            }
        }
        return out
    }

    public static func render(_ report: CheckReport) -> String {
        let e = escape
        var h = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>Reel check: \(report.items.count) items, \(report.failedCount) failed</title>
        <style>
        body{font-family:sans-serif;margin:1.5em;background:#fafafa;color:#222}
        table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:.4em;vertical-align:top;text-align:left}
        tr.failed{background:#fde8e8}tr.ok{background:#fff}.err{color:#a00;font-weight:bold}
        img{max-width:240px;display:block}figure{display:inline-block;margin:0 .5em .5em 0}figcaption{font-size:80%;color:#555}
        </style></head><body>
        <h1>Reel check</h1>
        <p>\(report.items.count) items, \(report.items.count - report.failedCount) ok, <span class="\(report.failedCount > 0 ? "err" : "")">\(report.failedCount) failed</span>.
        Media \(e(TimeFormat.clock(report.mediaSeconds))), checked in \(e(String(format: "%.2f", report.wallSeconds))) s.</p>

        """
        if let sheet = report.contactSheet {
            h += "<p><a href=\"\(href(sheet))\">Contact sheet</a></p>\n"
        }
        let reviewed = report.items.contains { $0.review != nil } || !report.reviewConflicts.isEmpty
        if reviewed { h += reviewSummary(report) }
        h += "<table>\n<tr><th>#</th><th>Item</th>\(reviewed ? "<th>Review</th>" : "")<th>Result</th><th>Media</th><th>Frames</th></tr>\n"
        for item in report.items {
            h += "<tr class=\"\(item.ok ? "ok" : "failed")\"><td>\(item.index)</td>"
            h += "<td><b>\(e(item.title))</b><br><small>\(e(Redactor.redactURL(item.input)))</small></td>"
            if reviewed { h += review(item.review, conflict: report.reviewConflicts.first { $0.index == item.index }) }
            if let error = item.error {
                h += "<td class=\"err\">FAILED: \(e(error.code))<br>\(e(Redactor.redactText(error.message)))</td>"
            } else if !item.ok {
                h += "<td class=\"err\">FAILED: stream problems</td>"
            } else {
                h += "<td>ok\(item.decodedToEnd ? ", decoded to the end" : "")</td>"
            }
            var media: [String] = []
            media.append("duration \(TimeFormat.clock(item.duration))")
            if let w = item.width, let hh = item.height { media.append("\(w)×\(hh)") }
            if let v = item.videoCodec { media.append("video: \(v)") }
            if let a = item.audioCodec { media.append("audio: \(a)") }
            if let t = item.timeToFirstFrame { media.append(String(format: "first frame %.0f ms", t * 1000)) }
            for p in item.problems {
                media.append("\(p.severity == .error ? "problem" : p.severity == .known ? "known" : "warning"): \(Redactor.redactText(p.description))"
                             + (p.link.map { " (\(Redactor.redactURL($0)))" } ?? ""))
            }
            for k in item.knownProblems where k.state == .fixed { media.append("fixed: \(k.code) did not happen (known problem)") }
            if let q = item.qoe {
                media.append(String(format: "QoE: startup %@, %d stalls (%.2f s), %@ dropped, bitrate %@", q.startupSeconds.map { String(format: "%.2f s", $0) } ?? "-",
                                    q.stalls, q.stallSeconds, q.droppedPercent.map { String(format: "%.1f %%", $0) } ?? "-",
                                    q.bitratePercent.map { String(format: "%.0f %% of the top", $0) } ?? "-"))
            }
            if let w = item.watch {
                media.append(String(format: "watched %.0f s: %d reloads, %d segments fetched", w.duration, w.reloads, w.segmentsFetched))
            }
            h += "<td>\(media.map(e).joined(separator: "<br>"))\(item.watch.map { timeline($0) } ?? "")\(item.scenario.map(scenario) ?? "")</td><td>"
            for f in item.frames {
                let caption = "\(f.requested)" + (f.time.map { " → " + String(format: "%.3f s", $0) } ?? "")
                if let file = f.file {
                    h += "<figure><a href=\"\(href(file))\"><img src=\"\(href(file))\" alt=\"\(e(caption))\"></a><figcaption>\(e(caption))</figcaption></figure>"
                    if let g = f.golden {
                        let score = String(format: "SSIM %.3f, worst tile %.3f", g.ssim, g.worstTile) + (g.psnr.map { String(format: ", PSNR %.1f dB", $0) } ?? ", identical")
                        h += "<figure><a href=\"\(href(g.file))\"><img src=\"\(href(g.file))\" alt=\"golden\"></a><figcaption>golden · \(e(score))</figcaption></figure>"
                        if let diff = g.diff {
                            h += "<figure><a href=\"\(href(diff))\"><img src=\"\(href(diff))\" alt=\"difference\"></a>"
                                + "<figcaption class=\"\(g.same ? "" : "err")\">\(g.same ? "changes" : "DIFFERS"): \(e(score))</figcaption></figure>"
                        }
                    }
                } else {
                    h += "<figure><figcaption>\(e(caption)): \(e(f.problem ?? "no frame"))</figcaption></figure>"
                }
            }
            h += "</td></tr>\n"
        }
        h += "</table>\n</body></html>\n"
        return h
    }
}

extension CheckReportHTML {
    /// A scenario's steps, each with its line, when it ended, the position and what happened.
    static func scenario(_ run: ScenarioRun) -> String {
        var h = "<details\(run.ok ? "" : " open")><summary>scenario \(escape(run.name)): \(run.steps.filter(\.ok).count) of \(run.steps.count) steps passed</summary><ol>"
        for s in run.steps {
            let at = String(format: "%.2f s", s.at) + (s.position.map { String(format: ", at %.3f s", $0) } ?? "")
            h += "<li class=\"\(s.ok ? "" : "err")\">line \(s.line): <code>\(escape(Redactor.redactText(s.action)))</code> (\(at))"
                + (s.message.map { " — " + escape(Redactor.redactText($0)) } ?? "") + "</li>"
        }
        return h + "</ol></details>"
    }

    /// `reel review`: how many items a person judged, passed and failed, and the conflicts.
    static func reviewSummary(_ report: CheckReport) -> String {
        let judged = report.items.filter { $0.review?.isJudged == true }.count
        let failed = report.items.filter { $0.review?.verdict == .fail }.count
        var h = "<p>Reviewed: \(judged) of \(report.items.count) items judged, \(judged - failed) passed, "
            + "<span class=\"\(failed > 0 ? "err" : "")\">\(failed) failed by the reviewer</span>.</p>\n"
        for c in report.reviewConflicts { h += "<p class=\"err\">Conflict: \(escape(Redactor.redactText(c.summary)))</p>\n" }
        return h
    }

    /// An item's review cell: the verdict, its note, who and when, and each mark with its frame.
    static func review(_ review: ItemReview?, conflict: ReviewConflict?) -> String {
        var h = "<td class=\"review\">"
        if let conflict {
            h += "<span class=\"err\">CONFLICT</span><br>\(escape(Redactor.redactText(conflict.summary)))"
        } else if let verdict = review?.verdict {
            h += verdict == .pass ? "<b>PASS</b>" : "<span class=\"err\">FAIL</span>"
            if let note = review?.note { h += "<br>\(escape(Redactor.redactText(note)))" }
            let by = [review?.reviewer, review?.at.map { ItemReview.iso.string(from: $0) }].compactMap { $0 }
            if !by.isEmpty { h += "<br><small>\(escape(by.joined(separator: ", ")))</small>" }
        } else {
            h += "not judged"
        }
        for m in review?.marks ?? [] {
            let caption = "\(TimeFormat.clock(m.time)) (\(String(format: "%.3f", m.time)) s)" + (m.wallClock.map { " · " + ItemReview.iso.string(from: $0) } ?? "") + ": " + Redactor.redactText(m.note)
            if let frame = m.frame {
                h += "<figure><a href=\"\(href(frame))\"><img src=\"\(href(frame))\" alt=\"\(escape(caption))\"></a><figcaption>\(escape(caption))</figcaption></figure>"
            } else {
                h += "<br><small>\(escape(caption))</small>"
            }
        }
        return h + "</td>"
    }

    /// `--watch`: a row per variant, its problems placed at their times on a bar of the watch's
    /// length (inline SVG, no script), and listed.
    static func timeline(_ w: CheckReport.Watch) -> String {
        let width = 360.0, total = max(w.duration, 1)
        var h = "<table class=\"watch\"><tr><th>variant</th><th>0 – \(Int(total)) s</th></tr>"
        for variant in w.variants {
            let marks = w.timeline.filter { $0.variant == variant }
            h += "<tr><td>\(escape(variant))</td><td><svg width=\"\(Int(width))\" height=\"14\" role=\"img\"><rect width=\"\(Int(width))\" height=\"14\" fill=\"#dfd\"/>"
            for m in marks {
                let x = min(width - 3, max(0, m.at / total * width))
                h += "<rect x=\"\(String(format: "%.1f", x))\" width=\"3\" height=\"14\" fill=\"\(m.severity == .error ? "#c00" : "#e90")\"><title>\(escape(String(format: "%.1f s %@", m.at, m.code)))</title></rect>"
            }
            h += "</svg>"
            for m in marks { h += "<br><small>\(escape(String(format: "%.1f s", m.at))) \(escape(m.code)): \(escape(Redactor.redactText(m.message)))</small>" }
            h += "</td></tr>"
        }
        return h + "</table>"
    }
}

private extension String {
    func leftPadded(_ n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}
