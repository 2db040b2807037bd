import Foundation

/// Saves the input that killed the process.
///
/// A Swift trap (`fatalError`, a failed precondition, an out-of-range index, an overflow) ends the
/// process with SIGILL or SIGTRAP and cannot be caught. So before every execution the input is copied
/// into a buffer allocated up front, and handlers for the fatal signals write that buffer to
/// `<crash dir>/<target>-crash.bin` with nothing but `open`, `write` and `_exit(70)`, which are
/// async-signal-safe. The handlers run on their own stack so a stack overflow is saved too. SIGALRM,
/// armed before each input, catches a parser that never returns (`<target>-hang.bin`, exit 71).
enum CrashGuard {
    /// Everything the signal handler reads: plain pointers and integers, set up outside the handler.
    struct State {
        var input: UnsafeMutablePointer<UInt8>
        var capacity: Int
        var count: Int
        var crashPath: UnsafeMutablePointer<CChar>?
        var hangPath: UnsafeMutablePointer<CChar>?
        var crashNote: UnsafeMutablePointer<CChar>?
        var hangNote: UnsafeMutablePointer<CChar>?
    }

    static let crashExitStatus: Int32 = 70
    static let hangExitStatus: Int32 = 71
    private static let fatalSignals = [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE]

    /// `nonisolated(unsafe)` is sound here: the fuzzer is single-threaded (EmbeddedChannel runs
    /// inline), so the state is only written between executions on the main thread, and read by a
    /// signal handler that interrupts that same thread and never returns.
    nonisolated(unsafe) private static let state: UnsafeMutablePointer<State> = {
        let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
        let capacity = 1 << 16
        state.initialize(
            to: State(
                input: .allocate(capacity: capacity),
                capacity: capacity,
                count: 0,
                crashPath: nil,
                hangPath: nil,
                crashNote: nil,
                hangNote: nil
            )
        )
        return state
    }()

    /// Installs the handlers on an alternate stack. Call once, before the first input.
    static func install() {
        _ = state  // initialize outside the handler
        let stackSize = 1 << 18
        var stack = stack_t()
        stack.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: stackSize, alignment: 16)
        stack.ss_size = stackSize
        stack.ss_flags = 0
        sigaltstack(&stack, nil)
        for signal in fatalSignals + [SIGALRM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in CrashGuard.handle(signal) }
            action.sa_flags = Int32(SA_ONSTACK) | Int32(bitPattern: UInt32(SA_RESETHAND))
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
    }

    /// Points the handler at the files for `target` and makes room for inputs up to `capacity` bytes.
    static func begin(target: String, crashDirectory: String, capacity: Int) {
        let current = state.pointee
        free(current.crashPath)
        free(current.hangPath)
        free(current.crashNote)
        free(current.hangNote)
        let crashPath = crashDirectory + "/\(target)-crash.bin"
        let hangPath = crashDirectory + "/\(target)-hang.bin"
        state.pointee.count = 0
        if capacity > current.capacity {
            state.pointee.input = .allocate(capacity: capacity)
            state.pointee.capacity = capacity
            current.input.deallocate()
        }
        state.pointee.crashPath = strdup(crashPath)
        state.pointee.hangPath = strdup(hangPath)
        state.pointee.crashNote = strdup(
            "muster-fuzz: target \(target) died on a fatal signal; input saved to \(crashPath)\n"
        )
        state.pointee.hangNote = strdup("muster-fuzz: target \(target) hung on one input; input saved to \(hangPath)\n")
    }

    /// Keeps `input` where the handler finds it and restarts the hang alarm. Called before every execution.
    static func record(_ input: [UInt8], hangSeconds: UInt32) {
        let count = min(input.count, state.pointee.capacity)
        input.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { state.pointee.input.update(from: base, count: count) }
        }
        state.pointee.count = count
        alarm(hangSeconds)
    }

    /// Stops the hang alarm once a target is done.
    static func end() {
        alarm(0)
        state.pointee.count = 0
    }

    /// Writes `bytes` to `path` the way the handler does (used for property failures). Returns false
    /// when the file could not be written.
    @discardableResult
    static func save(_ bytes: [UInt8], to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return bytes.withUnsafeBytes { raw in writeAll(fd, raw.baseAddress, raw.count) }
    }

    private static func handle(_ signal: Int32) {
        let current = state.pointee
        let isHang = signal == SIGALRM
        if let path = isHang ? current.hangPath : current.crashPath {
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            if fd >= 0 {
                writeAll(fd, current.input, current.count)
                close(fd)
            }
        }
        if let note = isHang ? current.hangNote : current.crashNote {
            writeAll(2, note, strlen(note))
        }
        writeSignalNumber(signal)
        _exit(isHang ? hangExitStatus : crashExitStatus)
    }

    /// "signal N\n" on stderr without `String` (formatting allocates, which a handler must not do).
    private static func writeSignalNumber(_ signal: Int32) {
        var digits: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        var value = Int(signal)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[3 - count] = UInt8(48 + value % 10)
                value /= 10
                count += 1
            } while value > 0 && count < 4
            let label: StaticString = "muster-fuzz: signal "
            writeAll(2, label.utf8Start, label.utf8CodeUnitCount)
            writeAll(2, buffer.baseAddress! + (4 - count), count)
            let newline: StaticString = "\n"
            writeAll(2, newline.utf8Start, 1)
        }
    }

    @discardableResult
    private static func writeAll(_ fd: Int32, _ base: UnsafeRawPointer?, _ count: Int) -> Bool {
        guard let base else { return count == 0 }
        var offset = 0
        while offset < count {
            let written = write(fd, base + offset, count - offset)
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }
}
