/// A minimal `command positional... --name value` parser (ReelBench is a tool for bench.sh, not
/// for users, and depends on the engine only).
struct BenchArguments {
    let command: String
    let positional: [String]
    private let options: [String: String]

    init<S: Sequence>(_ raw: S) where S.Element == String {
        var positional: [String] = [], options: [String: String] = [:]
        var command = ""
        var iterator = raw.makeIterator()
        while let a = iterator.next() {
            if a.hasPrefix("--") {
                let body = a.dropFirst(2)
                if let eq = body.firstIndex(of: "=") {
                    options[String(body[..<eq])] = String(body[body.index(after: eq)...])
                } else {
                    options[String(body)] = iterator.next() ?? ""
                }
            } else if command.isEmpty {
                command = a
            } else {
                positional.append(a)
            }
        }
        self.command = command
        self.positional = positional
        self.options = options
    }

    func string(_ name: String, default value: String) -> String { options[name] ?? value }
    func int(_ name: String, default value: Int) -> Int { options[name].flatMap { Int($0) } ?? value }
    func doubles(_ name: String) -> [Double] {
        (options[name] ?? "").split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    }
}
