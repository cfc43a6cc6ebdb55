import Foundation
import ReelCore

/// Writes one JSON object per call on stdout (through ReelCore's JSON writer, keys in order).
enum BenchOutput {
    static func print(_ pairs: KeyValuePairs<String, JSONValue>) {
        let object = JSONValue.object(pairs.map { ($0.key, $0.value) })
        FileHandle.standardOutput.write(Data((object.serialized() + "\n").utf8))
    }

    static func fail(_ message: String) -> Int32 {
        print(["status": .string("error"), "error": .string(message)])
        Log.say(message, prefix: "ReelBench")
        return 1
    }
}
