import Foundation

/// A scenario's `expect NAME OP VALUE`: `position>=29.9`, `paused==yes`, `audio-lang==fr`,
/// `picture-height==360`, `position~=30` (within a frame and a bit: 0.05 s, or `~=30/0.5`).
/// The name is a measure the check takes (`ScenarioRunner`) or any property of the socket's.
public struct ScenarioExpectation: Sendable, Equatable, CustomStringConvertible {
    public enum Operator: String, Sendable, CaseIterable {
        // Longest first, so that `>=` is not read as `>` then `=`.
        case near = "~=", equal = "==", notEqual = "!=", atLeast = ">=", atMost = "<=", above = ">", below = "<"
    }

    public var name: String
    public var op: Operator
    public var value: String
    /// `~=`'s tolerance.
    public var tolerance: Double = 0.05

    public static func parse(_ text: String) -> ScenarioExpectation? {
        let t = text.replacingOccurrences(of: " ", with: "")
        for op in Operator.allCases {
            guard let r = t.range(of: op.rawValue) else { continue }
            let name = String(t[..<r.lowerBound]), value = String(t[r.upperBound...])
            guard !name.isEmpty, !value.isEmpty, name.count <= 100, value.count <= 200,
                  name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "/" || $0 == "_" }) else { return nil }
            var e = ScenarioExpectation(name: name, op: op, value: value)
            if op == .near {
                let parts = value.split(separator: "/", maxSplits: 1).map(String.init)
                guard parts.count <= 2, Double(parts[0]) != nil else { return nil }
                e.value = parts[0]
                if parts.count == 2 {
                    guard let tol = Double(parts[1]), tol >= 0, tol.isFinite else { return nil }
                    e.tolerance = tol
                }
            } else if [.atLeast, .atMost, .above, .below].contains(op), Double(value) == nil {
                return nil
            }
            return e
        }
        return nil
    }

    /// Whether `actual` (as the property or measure reads, JSON) meets the expectation.
    public func holds(_ actual: JSONValue) -> Bool {
        let number = Self.number(actual)
        switch op {
        case .near:
            guard let a = number, let v = Double(value) else { return false }
            return abs(a - v) <= tolerance + 1e-9
        case .atLeast, .atMost, .above, .below:
            guard let a = number, let v = Double(value) else { return false }
            switch op {
            case .atLeast: return a >= v
            case .atMost: return a <= v
            case .above: return a > v
            default: return a < v
            }
        case .equal, .notEqual:
            let same = Self.same(actual, value)
            return op == .equal ? same : !same
        }
    }

    static func number(_ v: JSONValue) -> Double? {
        switch v {
        case .int(let i): Double(i)
        case .double(let d): d
        case .bool(let b): b ? 1 : 0
        case .string(let s): Double(s)
        default: nil
        }
    }

    /// mpv's words: yes/no for flags, `none`/`no` for null; numbers compared as numbers.
    static func same(_ actual: JSONValue, _ text: String) -> Bool {
        switch actual {
        case .null: return ["none", "no", "null"].contains(text.lowercased())
        case .bool(let b): return (["yes", "true", "1"].contains(text.lowercased()) && b) || (["no", "false", "0"].contains(text.lowercased()) && !b)
        case .int, .double:
            guard let a = number(actual), let v = Double(text) else { return false }
            return abs(a - v) < 1e-9
        case .string(let s): return s == text || s.lowercased() == text.lowercased()
        default: return actual.serialized() == text
        }
    }

    /// What the value read was, for the message of a failed expectation.
    public static func shown(_ v: JSONValue) -> String {
        switch v {
        case .null: "none"
        case .string(let s): s
        case .double(let d): String(format: "%.3f", d)
        default: v.serialized()
        }
    }

    public var description: String {
        name + op.rawValue + value + (op == .near && tolerance != 0.05 ? "/\(tolerance)" : "")
    }
}

/// What one scenario did to an item: each action's outcome and when (report.json's `scenario`).
public struct ScenarioRun: Sendable, Equatable {
    public struct Step: Sendable, Equatable {
        public var line: Int
        public var action: String
        public var ok: Bool
        /// Wall seconds from the scenario's start to the action's end.
        public var at: Double
        /// The item's position after the action.
        public var position: Double?
        /// What happened (a failed expectation: what was read; a frame: its file).
        public var message: String?

        public init(line: Int, action: String, ok: Bool, at: Double, position: Double?, message: String?) {
            self.line = line; self.action = action; self.ok = ok; self.at = at; self.position = position; self.message = message
        }
    }

    public var name: String
    public var steps: [Step]
    /// When the scenario started (the steps' `at` count from it): to line them up with a
    /// server's log.
    public var started: Date?

    public init(name: String, steps: [Step], started: Date? = nil) { self.name = name; self.steps = steps; self.started = started }

    private static func iso() -> ISO8601DateFormatter {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f
    }

    public var ok: Bool { steps.allSatisfy(\.ok) }

    /// The problem a failed step makes in the item's `problems` (its line, the action, why).
    public var problems: [HLSProblem] {
        steps.filter { !$0.ok }.map {
            HLSProblem(line: $0.line, severity: .error, code: "scenario-failed",
                       message: "\(name) line \($0.line): \($0.action): \($0.message ?? "failed")")
        }
    }

    public var json: JSONValue {
        .object([("name", .string(name)), ("ok", .bool(ok)), ("started", .optional(started.map { Self.iso().string(from: $0) })), ("steps", .array(steps.map { s in
            .object([("line", .int(s.line)), ("action", .string(s.action)), ("ok", .bool(s.ok)),
                     ("at", .double((s.at * 1000).rounded() / 1000)), ("position", .optional(s.position.map { ($0 * 1000).rounded() / 1000 })),
                     ("message", .optional(s.message.map(Redactor.redactText)))])
        }))])
    }

    public init?(reportJSON value: Any?) {
        guard let o = value as? [String: Any] else { return nil }
        name = o["name"] as? String ?? "?"
        started = (o["started"] as? String).flatMap { Self.iso().date(from: $0) }
        steps = (o["steps"] as? [[String: Any]] ?? []).map { s in
            Step(line: (s["line"] as? NSNumber)?.intValue ?? 0, action: s["action"] as? String ?? "?", ok: s["ok"] as? Bool ?? false,
                 at: (s["at"] as? NSNumber)?.doubleValue ?? 0, position: (s["position"] as? NSNumber)?.doubleValue, message: s["message"] as? String)
        }
    }
}
