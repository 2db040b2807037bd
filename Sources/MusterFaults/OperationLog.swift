import Foundation
import Synchronization

/// Every operation of the campaign, in memory for the checker and as JSON lines in the history file.
final class OperationLog: Sendable {
    private struct State {
        var operations: [Operation] = []
        var handle: FileHandle?
    }

    private let state: Mutex<State>
    private let nextID = Atomic<Int>(0)
    let path: String

    init(path: String) throws {
        self.path = path
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw FaultsError("cannot write the history file \(path)")
        }
        state = Mutex(State(handle: handle))
    }

    func newID() -> Int { nextID.add(1, ordering: .relaxed).newValue }

    func record(_ operation: Operation) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var line = (try? encoder.encode(operation)) ?? Data()
        line.append(UInt8(ascii: "\n"))
        state.withLock { state in
            state.operations.append(operation)
            state.handle?.write(line)
        }
    }

    var operations: [Operation] { state.withLock { $0.operations } }

    func operations(in scenario: String) -> [Operation] {
        state.withLock { $0.operations.filter { $0.scenario == scenario } }
    }

    static func load(path: String) throws -> [Operation] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let decoder = JSONDecoder()
        return try text.split(separator: "\n").map { try decoder.decode(Operation.self, from: Data($0.utf8)) }
    }
}
