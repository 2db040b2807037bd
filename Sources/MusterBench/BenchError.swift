/// A benchmark that could not run: the step that failed and why, so the run can be fixed.
struct BenchError: Error, CustomStringConvertible {
    enum Code: String {
        case setup
        case syscall
        case wrongResult
    }

    let code: Code
    let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    var description: String { "muster-bench: \(code.rawValue): \(message)" }
}
