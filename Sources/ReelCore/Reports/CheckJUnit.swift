import Foundation

/// `reel check --junit FILE`: the report as JUnit XML, the format CI systems read (GitLab,
/// Jenkins, GitHub test reporters): one `testsuite` "reel check", one `testcase` per item, a
/// failed item as a `failure` (its error code as the type, its message), what was checked in
/// `system-out`. Valid against the common JUnit schema (Resources/schemas/junit.xsd).
public enum CheckJUnit {
    public static func render(_ report: CheckReport) -> String {
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime]
        // A watched live item (`--watch`) adds one test case per rule, failed when it was broken.
        let ruleCases = report.items.compactMap(\.watch).map(\.rules.count).reduce(0, +)
        let ruleFailures = report.items.compactMap(\.watch).map { w in w.rules.filter { r in w.timeline.contains { $0.code == r.code && $0.severity == .error } }.count }.reduce(0, +)
        // A scenario (`--scenario`) adds one test case per step, failed when the step failed.
        let stepCases = report.items.compactMap(\.scenario).map(\.steps.count).reduce(0, +)
        let stepFailures = report.items.compactMap(\.scenario).map { $0.steps.filter { !$0.ok }.count }.reduce(0, +)
        let failed = report.items.filter { !$0.ok || $0.review?.verdict == .fail }.count + ruleFailures + stepFailures
        let tests = report.items.count + ruleCases + stepCases
        let time = seconds(report.wallSeconds)
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"reel check\" tests=\"\(tests)\" failures=\"\(failed)\" errors=\"0\" time=\"\(time)\">\n"
        out += "  <testsuite name=\"reel check\" tests=\"\(tests)\" failures=\"\(failed)\" errors=\"0\" skipped=\"0\""
        out += " time=\"\(time)\" timestamp=\"\(iso.string(from: report.generated).replacingOccurrences(of: "Z", with: ""))\" hostname=\"localhost\" id=\"0\" package=\"reel\">\n"
        out += "    <properties>\n"
        out += "      <property name=\"positions\" value=\"\(XMLText.escape(report.positions.joined(separator: ",")))\"/>\n"
        out += "    </properties>\n"
        for item in report.items {
            let name = String(format: "%03d %@", item.index, item.title)
            out += "    <testcase classname=\"reel.check\" name=\"\(XMLText.escape(name))\" time=\"\(seconds(item.checkSeconds))\">\n"
            let errors = item.problems.filter { $0.severity == .error }
            if let review = item.review, review.verdict == .fail {
                // `reel review`: a person's failed verdict is the failure, its note the message.
                let note = Redactor.redactText(review.note ?? "failed by the reviewer")
                out += "      <failure message=\"\(XMLText.escape(note))\" type=\"review\">"
                out += XMLText.escape(([note] + review.reviewer.map { ["reviewer: \($0)"] }.orEmpty
                                       + review.marks.map { String(format: "mark at %.3f s: ", $0.time) + Redactor.redactText($0.note) }).joined(separator: "\n"))
                out += "</failure>\n"
            } else if let error = item.error {
                out += "      <failure message=\"\(XMLText.escape(error.message))\" type=\"\(XMLText.escape(error.code))\">"
                out += XMLText.escape([error.message, error.httpStatus.map { "HTTP \($0)" }, error.uri].compactMap { $0 }.joined(separator: "\n"))
                out += "</failure>\n"
            } else if let first = errors.first {
                // Stream problems: the first error is the failure; all of them (warnings too) are listed.
                out += "      <failure message=\"\(XMLText.escape(Redactor.redactText(first.message)))\" type=\"\(XMLText.escape(first.code))\">"
                out += XMLText.escape(Redactor.redactText(errors.map(\.description).joined(separator: "\n")))
                out += "</failure>\n"
            }
            out += "      <system-out>\(XMLText.escape(details(item)))</system-out>\n"
            out += "    </testcase>\n"
            if let scenario = item.scenario { out += steps(scenario, of: name) }
            guard let watch = item.watch else { continue }
            for rule in watch.rules {
                out += "    <testcase classname=\"reel.check.watch\" name=\"\(XMLText.escape(name + ": " + rule.code))\" time=\"0\">\n"
                let broken = watch.timeline.filter { $0.code == rule.code }
                if let first = broken.first(where: { $0.severity == .error }) {
                    out += "      <failure message=\"\(XMLText.escape(Redactor.redactText(first.message)))\" type=\"\(XMLText.escape(rule.code))\">"
                    out += XMLText.escape(Redactor.redactText(broken.map { String(format: "%.1f s %@: %@", $0.at, $0.variant, $0.message) }.joined(separator: "\n")))
                    out += "</failure>\n"
                }
                out += "      <system-out>\(XMLText.escape(rule.source))</system-out>\n"
                out += "    </testcase>\n"
            }
        }
        out += "    <system-out></system-out>\n    <system-err></system-err>\n"
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    /// A scenario's steps as test cases: "007 film: walk line 4: expect paused == yes".
    static func steps(_ scenario: ScenarioRun, of name: String) -> String {
        var out = "", previous = 0.0
        for step in scenario.steps {
            let title = "\(name): \(scenario.name) line \(step.line): \(step.action)"
            out += "    <testcase classname=\"reel.check.scenario\" name=\"\(XMLText.escape(Redactor.redactText(title)))\" time=\"\(seconds(max(0, step.at - previous)))\">\n"
            previous = step.at
            let said = Redactor.redactText(step.message ?? "")
            if !step.ok {
                out += "      <failure message=\"\(XMLText.escape(said.isEmpty ? "failed" : said))\" type=\"scenario-failed\">"
                out += XMLText.escape("line \(step.line): \(Redactor.redactText(step.action))" + (said.isEmpty ? "" : "\n" + said)) + "</failure>\n"
            }
            out += "      <system-out>\(XMLText.escape(String(format: "at %.3f s", step.at) + (step.position.map { String(format: ", position %.3f s", $0) } ?? "") + (step.ok && !said.isEmpty ? "\n" + said : "")))</system-out>\n"
            out += "    </testcase>\n"
        }
        return out
    }

    static func details(_ item: CheckReport.Item) -> String {
        var lines = ["input: \(Redactor.redactURL(item.input))", "uri: \(Redactor.redactURL(item.uri))"]
        if let d = item.duration { lines.append("duration: \(seconds(d)) s") }
        if let w = item.width, let h = item.height { lines.append("size: \(w)x\(h)") }
        if let v = item.videoCodec { lines.append("video: \(v)") }
        if let a = item.audioCodec { lines.append("audio: \(a)") }
        for p in item.problems {
            lines.append("\(p.severity == .error ? "problem" : p.severity == .known ? "known" : "warning"): \(p)" + (p.link.map { " (\($0))" } ?? ""))
        }
        for k in item.knownProblems where k.state == .fixed { lines.append("fixed: \(k.code) did not happen" + (k.link.map { " (\($0))" } ?? "")) }
        for f in item.frames {
            lines.append("frame \(f.requested): " + (f.file.map { "\($0) at \(f.time.map(seconds) ?? "?") s" } ?? (f.problem ?? "none")))
        }
        return Redactor.redactText(lines.joined(separator: "\n"))
    }

    static func seconds(_ d: Double) -> String { d.isFinite ? String(format: "%.3f", d) : "0" }
}

private extension Optional where Wrapped == [String] {
    var orEmpty: [String] { self ?? [] }
}
