import Foundation
#if canImport(ReelCore)
@testable import ReelCore
#endif

/// The control socket's request parser (`IPCRequest.parse`): any line a client sends gives a
/// request or a typed failure, never a trap (issue 12: `playlist-pos 1e300` and a seek of 1e12
/// trapped further on), and every number in a parsed command is within its documented range.
enum IPCRequestFuzz {
    static func run(_ bytes: [UInt8]) {
        let line = String(decoding: bytes, as: UTF8.self)
        check(IPCRequest.parse(line))
        // The same bytes as arguments of real commands, so the number paths are reached often.
        let number = line.prefix(40).filter { !"\"\\\n".contains($0) }
        for command in ["jump", "seek", "skip", "rate", "volume", "quit"] {
            check(IPCRequest.parse("{\"command\":[\"\(command)\",\(number)]}"))
            check(IPCRequest.parse("{\"command\":[\"\(command)\",\"\(number)\"]}"))
        }
        check(IPCRequest.parse("{\"command\":[\"set_property\",\"playlist-pos\",\(number)]}"))
    }

    static func check(_ result: Result<IPCRequest, IPCRequest.Failure>) {
        guard case .success(let request) = result else { return }
        switch request.command {
        case .jump(let i): if !(0...Int(Int32.max)).contains(i) { fuzzFailure("jump index \(i)") }
        case .seek(let v, _, _), .skip(let v): if !v.isFinite { fuzzFailure("seek \(v)") }
        case .rate(let r): if !(r.isFinite && r != 0 && abs(r) <= 64) { fuzzFailure("rate \(r)") }
        case .volume(let v): if !(0...1000).contains(v) { fuzzFailure("volume \(v)") }
        case .quit(let code): if !(0...255).contains(code) { fuzzFailure("quit \(code)") }
        default: break
        }
    }
}
