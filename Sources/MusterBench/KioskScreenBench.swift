import Foundation
import MusterControl
import MusterProcess

/// The kiosk screen as an attendee meets it: the real `muster kiosk` process on pipes, against a
/// real musterd. Times two Enters per attendee: after the email (until the "Found:" line, a lookup
/// in the replica) and after "y" (until the "Welcome" line, a check-in committed by the daemon
/// over the control socket). Beside them: the control socket's own round trip (`ping`) measured
/// from this process on the same kiosk.
enum KioskScreenBench {
    struct Result {
        let lookup: LatencySample
        let checkIn: LatencySample
        let controlPing: LatencySample
    }

    static func run(lab: Lab, kiosk: Int, count: Int, firstAttendee: Int) throws -> Result {
        var controlPing = LatencySample()
        for _ in 0..<max(200, count) {
            _ = try controlPing.measure { try lab.request(kiosk, .ping) }
        }
        let screen = try Screen(binary: lab.binaries + "/muster", config: lab.config(kiosk))
        defer { screen.stop() }
        try screen.expect(KioskScreenText.mainPrompt)
        var lookup = LatencySample()
        var checkIn = LatencySample()
        for index in firstAttendee..<(firstAttendee + count) {
            lookup.record(nanoseconds: try screen.enter(BenchAttendees.email(index), until: "\n", after: "Found: "))
            try screen.expect(KioskScreenText.confirmPrompt)
            checkIn.record(nanoseconds: try screen.enter("y", until: "\n", after: "Welcome"))
            try screen.expect(KioskScreenText.notePrompt)
            _ = try screen.enter("", until: KioskScreenText.mainPrompt, after: "")
        }
        return Result(lookup: lookup, checkIn: checkIn, controlPing: controlPing)
    }
}

/// The prompts of ``MusterClient/KioskScreen`` the benchmark waits for.
enum KioskScreenText {
    static let mainPrompt = "Email or ticket code (or 'new' to register): "
    static let confirmPrompt = "[y/N] "
    static let notePrompt = "(or press Enter to skip): "
}

/// A running `muster kiosk` with its stdin and stdout on pipes.
final class Screen {
    let process: RunningProcess
    let input: FileHandle
    let output: FileHandle
    private var pending: [UInt8] = []

    init(binary: String, config: String) throws {
        process = try Command(binary, ["kiosk", "--config", config], input: .pipe, output: .pipe).start()
        guard let input = process.input, let output = process.output else {
            throw BenchError(.setup, "the kiosk screen has no pipes")
        }
        self.input = input
        self.output = output
    }

    func stop() {
        try? input.close()
        process.waitUntilExit()
    }

    /// Writes `line` and Enter, then reads until `marker` appears after `after`; returns the
    /// nanoseconds from the write to the read that completed it.
    func enter(_ line: String, until marker: String, after: String) throws -> UInt64 {
        let start = Stopwatch.monotonic()
        input.write(Data((line + "\n").utf8))
        try read(until: marker, after: after)
        return Stopwatch.monotonic() - start
    }

    func expect(_ marker: String) throws { try read(until: marker, after: "") }

    /// Consumes output up to and including the first `marker` that follows `after`.
    private func read(until marker: String, after: String) throws {
        let fd = output.fileDescriptor
        let deadline = Stopwatch.seconds() + 30
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while true {
            if let end = Self.find(Array(marker.utf8), in: pending, after: Array(after.utf8)) {
                pending.removeFirst(end)
                return
            }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 1_000) >= 0 else { throw BenchError(.syscall, "poll: \(errno)") }
            if poller.revents == 0 {
                guard Stopwatch.seconds() < deadline else {
                    throw BenchError(
                        .wrongResult,
                        "kiosk screen: no '\(marker)' after 30 s; screen said: \(String(decoding: pending.suffix(400), as: UTF8.self))"
                    )
                }
                continue
            }
            let count = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else {
                throw BenchError(
                    .wrongResult,
                    "kiosk screen ended; it said: \(String(decoding: pending.suffix(400), as: UTF8.self))"
                )
            }
            pending += chunk[0..<count]
        }
    }

    /// The end index of the first `marker` after the first `after` in `bytes`.
    static func find(_ marker: [UInt8], in bytes: [UInt8], after: [UInt8]) -> Int? {
        var from = 0
        if !after.isEmpty {
            guard let start = index(of: after, in: bytes, from: 0) else { return nil }
            from = start + after.count
        }
        return index(of: marker, in: bytes, from: from).map { $0 + marker.count }
    }

    static func index(of needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard needle.count <= bytes.count - from else { return nil }
        var i = from
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0] && Array(bytes[i..<(i + needle.count)]) == needle { return i }
            i += 1
        }
        return nil
    }
}
