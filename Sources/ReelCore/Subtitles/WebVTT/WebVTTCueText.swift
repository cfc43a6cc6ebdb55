/// WebVTT cue text by the W3C "cue text parsing rules" (WebVTT §6.4): the tokenizer's states
/// (data, character reference, tag, start tag, class, annotation, end tag, timestamp) and the
/// tree they build — class `c`, `i`, `b`, `u`, `ruby`/`rt`, voice `v`, language `lang`, text and
/// timestamps. `runs` flattens the tree into what the overlay draws: italic, bold, underline and
/// the default colour classes (§5.2.1: `white`, `lime`, `cyan`, `red`, `yellow`, `magenta`,
/// `blue`, `black`, and their `bg_` background forms); ruby text is not drawn (Pango has no
/// ruby), timestamps and voices draw nothing.
public indirect enum WebVTTNode: Equatable, Sendable {
    public enum Kind: String, Sendable { case c, i, b, u, ruby, rt, v, lang }
    case text(String)
    case timestamp(Double)
    case element(Kind, classes: [String], annotation: String?, language: String?, children: [WebVTTNode])
}

public enum WebVTTCueText {
    enum Token: Equatable {
        case string(String)
        case startTag(String, classes: [String], annotation: String?)
        case endTag(String)
        case timestampTag(String)
    }

    /// How deep elements nest before further start tags are ignored (browsers flatten deep trees
    /// too; real cues nest three or four levels).
    public static let maximumDepth = 32

    /// The cue text parsing rules: the node list for `input`.
    public static func parse(_ input: String) -> [WebVTTNode] {
        let chars = Array(input)
        var position = 0
        // The open nodes; index 0 is the result list.
        var stack: [(kind: WebVTTNode.Kind?, classes: [String], annotation: String?, language: String?, children: [WebVTTNode])] = [(nil, [], nil, nil, [])]
        var languages: [String] = []
        func closeCurrent() {
            let node = stack.removeLast()
            stack[stack.count - 1].children.append(.element(node.kind!, classes: node.classes, annotation: node.annotation,
                                                           language: node.language, children: node.children))
        }
        while position < chars.count {
            switch token(chars, &position) {
            case .string(let s):
                stack[stack.count - 1].children.append(.text(s))
            case .startTag(let name, classes: let classes, annotation: let annotation):
                let kind: WebVTTNode.Kind?
                switch name {
                case "c", "i", "b", "u", "ruby": kind = WebVTTNode.Kind(rawValue: name)
                case "rt": kind = stack.last?.kind == .ruby ? .rt : nil
                case "v": kind = .v
                case "lang": kind = .lang
                default: kind = nil
                }
                // Deeper than `maximumDepth`, a tag is left out (its text stays): the tree, and the
                // walks and teardown that recurse over it, stay shallow whatever a file nests
                // (10,000 nested <b> crashed Reel on a worker thread's stack).
                guard let kind, stack.count <= maximumDepth else { continue }
                if kind == .lang { languages.append(annotation ?? "") }
                stack.append((kind, classes.filter { !$0.isEmpty }, kind == .v || kind == .lang ? (annotation ?? "") : nil, languages.last, []))
            case .endTag(let name):
                let current = stack.count > 1 ? stack.last?.kind : nil
                if let current, current.rawValue == name, current != .lang {
                    closeCurrent()
                } else if name == "lang", current == .lang {
                    closeCurrent()
                    languages.removeLast()
                } else if name == "ruby", current == .rt {
                    closeCurrent()
                    closeCurrent()
                }
            case .timestampTag(let value):
                let valueChars = Array(value)
                var at = 0
                if let time = WebVTTTimestamp.collect(valueChars, &at), at == valueChars.count {
                    stack[stack.count - 1].children.append(.timestamp(time))
                }
            }
        }
        while stack.count > 1 { closeCurrent() }  // unclosed tags end with the text
        return stack[0].children
    }

    /// The WebVTT cue text tokenizer: one token from `position` on.
    static func token(_ input: [Character], _ position: inout Int) -> Token {
        enum State { case data, tag, startTag, startTagClass, startTagAnnotation, endTag, timestampTag }
        var state = State.data
        var result = ""
        var buffer = ""
        var classes: [String] = []
        func annotation() -> String {
            buffer.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\u{0C}" || $0 == "\r" }).joined(separator: " ")
        }
        while true {
            let c: Character? = position < input.count ? input[position] : nil
            switch state {
            case .data:
                switch c {
                case "&"?:
                    if let (text, next) = HTMLCharacterReference.consume(input, at: position) {
                        result += text
                        position = next
                        continue
                    }
                    result.append("&")
                case "<"?:
                    if !result.isEmpty { return .string(result) }
                    state = .tag
                case nil: return .string(result)
                case let c?: result.append(c)
                }
            case .tag:
                switch c {
                case "\t"?, "\n"?, "\u{0C}"?, " "?: state = .startTagAnnotation
                case "."?: state = .startTagClass
                case "/"?: state = .endTag
                case let d? where d.isASCIIDigit:
                    result = String(d)
                    state = .timestampTag
                case ">"?:
                    position += 1
                    return .startTag("", classes: [], annotation: nil)
                case nil: return .startTag("", classes: [], annotation: nil)
                case let c?:
                    result = String(c)
                    state = .startTag
                }
            case .startTag:
                switch c {
                case "\t"?, "\u{0C}"?, " "?: state = .startTagAnnotation
                case "\n"?:
                    buffer = "\n"
                    state = .startTagAnnotation
                case "."?: state = .startTagClass
                case ">"?:
                    position += 1
                    return .startTag(result, classes: [], annotation: nil)
                case nil: return .startTag(result, classes: [], annotation: nil)
                case let c?: result.append(c)
                }
            case .startTagClass:
                switch c {
                case "\t"?, "\u{0C}"?, " "?:
                    classes.append(buffer)
                    buffer = ""
                    state = .startTagAnnotation
                case "\n"?:
                    classes.append(buffer)
                    buffer = "\n"
                    state = .startTagAnnotation
                case "."?:
                    classes.append(buffer)
                    buffer = ""
                case ">"?, nil:
                    if c != nil { position += 1 }
                    classes.append(buffer)
                    return .startTag(result, classes: classes, annotation: nil)
                case let c?: buffer.append(c)
                }
            case .startTagAnnotation:
                switch c {
                case "&"?:
                    if let (text, next) = HTMLCharacterReference.consume(input, at: position, additionalAllowed: ">") {
                        buffer += text
                        position = next
                        continue
                    }
                    buffer.append("&")
                case ">"?, nil:
                    if c != nil { position += 1 }
                    return .startTag(result, classes: classes, annotation: annotation())
                case let c?: buffer.append(c)
                }
            case .endTag, .timestampTag:  // the two states read to ">" alike
                switch c {
                case ">"?, nil:
                    if c != nil { position += 1 }
                    return state == .endTag ? .endTag(result) : .timestampTag(result)
                case let c?: result.append(c)
                }
            }
            position += 1  // "Next"
        }
    }

    // MARK: What the overlay draws

    /// The tree as styled runs (adjacent runs of one style merged).
    public static func runs(_ nodes: [WebVTTNode]) -> [SubtitleRun] {
        var runs: [SubtitleRun] = []
        func walk(_ nodes: [WebVTTNode], _ style: SubtitleRun) {
            for node in nodes {
                switch node {
                case .text(let text):
                    guard !text.isEmpty else { continue }
                    var run = style
                    run.text = text
                    if let last = runs.last, last.sameStyle(as: run) { runs[runs.count - 1].text += text } else { runs.append(run) }
                case .timestamp: continue
                case .element(.rt, _, _, _, _): continue  // ruby text: not drawn
                case .element(let kind, let classes, _, _, let children):
                    var inner = style
                    switch kind {
                    case .i: inner.italic = true
                    case .b: inner.bold = true
                    case .u: inner.underline = true
                    default: break
                    }
                    for name in classes {
                        if let color = defaultColors[name] { inner.color = color }
                        if name.hasPrefix("bg_"), let color = defaultColors[String(name.dropFirst(3))] { inner.background = color }
                    }
                    walk(children, inner)
                }
            }
        }
        walk(nodes, SubtitleRun(""))
        return runs
    }

    /// The default classes' colours (WebVTT §5.2.1); white is the overlay's own.
    static let defaultColors: [String: String] = [
        "white": "#ffffff", "lime": "#00ff00", "cyan": "#00ffff", "red": "#ff0000", "yellow": "#ffff00",
        "magenta": "#ff00ff", "blue": "#0000ff", "black": "#000000",
    ]
}

/// "Collect a WebVTT timestamp" (WebVTT §6.3): `mm:ss.ttt` or `h…:mm:ss.ttt`, exactly two digits
/// for minutes and seconds (≤ 59) and three for the fraction, "." before it.
enum WebVTTTimestamp {
    static func collect(_ input: [Character], _ position: inout Int) -> Double? {
        func digits() -> String {
            var s = ""
            while position < input.count, input[position].isASCIIDigit {
                s.append(input[position])
                position += 1
            }
            return s
        }
        // Steps 1–4.
        var hours = false
        guard position < input.count, input[position].isASCIIDigit else { return nil }
        let s1 = digits()
        guard let v1 = Double(s1) else { return nil }
        if s1.count != 2 || v1 > 59 { hours = true }
        // Steps 5–7.
        guard position < input.count, input[position] == ":" else { return nil }
        position += 1
        let s2 = digits()
        guard s2.count == 2, var v2 = Double(s2) else { return nil }
        var value1 = v1, v3: Double
        // Step 8.
        if hours || (position < input.count && input[position] == ":") {
            guard position < input.count, input[position] == ":" else { return nil }
            position += 1
            let s3 = digits()
            guard s3.count == 2, let v = Double(s3) else { return nil }
            v3 = v
        } else {
            v3 = v2
            v2 = value1
            value1 = 0
        }
        // Steps 9–12.
        guard position < input.count, input[position] == "." else { return nil }
        position += 1
        let s4 = digits()
        guard s4.count == 3, let v4 = Double(s4) else { return nil }
        guard v2 <= 59, v3 <= 59 else { return nil }
        let total = value1 * 3600 + v2 * 60 + v3 + v4 / 1000
        return total <= BoundedNumber.maximumSeconds ? total : nil  // hours of 2^64 are no time
    }
}
