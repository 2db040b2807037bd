import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An IPP printer of the test's own: CUPS's `ippeveprinter` (Debian's `cups-ipp-utils`) on
/// localhost and a free port, taking PDF, with its spool in a temporary directory. (It refuses raw
/// data it cannot recognise by its first bytes, such as ZPL: the ZPL test uses a ``LoopbackPrinter``.)
///
/// The badge tests point a private cupsd's queue at it (`ipp://localhost:PORT/ipp/print`), so a
/// job goes through the real scheduler and the real `ipp` backend, which follows the job on the
/// printer until the printer reports it completed; only then does cupsd report it completed to
/// the kiosk. The printer's print command copies each document it prints into ``printedDirectory``,
/// where the tests read it back (`pdftotext`).
///
/// Two things `ippeveprinter` needs that a test machine may lack, both made here and private:
/// - a D-Bus system bus: it creates an Avahi client at start-up even with DNS-SD registration off
///   (`-r off`) and exits with "Unable to initialize DNS-SD" without one. A `dbus-daemon` of the
///   printer's own, on a socket in its directory, is given to it as `DBUS_SYSTEM_BUS_ADDRESS`; no
///   avahi-daemon is on that bus, so nothing is announced anywhere.
/// - `-n localhost`: it listens on IPv4 and IPv6 loopback of that name, never on another interface
///   (a numeric address fails, as it then looks for an IPv6 address of "127.0.0.1"). It needs both:
///   on a machine with IPv6 disabled it exits with "Unable to create IPv6 listener", which the
///   error thrown here quotes.
public final class VirtualPrinter: @unchecked Sendable {
    // @unchecked: every stored property is set once in init and only read afterwards, except the
    // two processes, which only `close()` touches (once, from the test's own task).
    public let port: Int
    public let directory: TemporaryDirectory
    private let bus: RunningProcess
    private let printer: RunningProcess

    /// The printer's IPP URI, what the cupsd queue sends to.
    public var uri: String { "ipp://localhost:\(port)/ipp/print" }

    /// Where each printed document lands, as `JOBID-TITLE.pdf`.
    public var printedDirectory: String { directory.file("printed") }

    /// Whether the tools are installed.
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/sbin/ippeveprinter")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")
    }

    public init() throws {
        directory = try TemporaryDirectory("muster-ipp")
        for sub in ["spool", "printed"] {
            try FileManager.default.createDirectory(atPath: directory.file(sub), withIntermediateDirectories: true)
        }
        // The print command: copy the document, then rename, so a reader never sees half a file.
        let command = directory.file("print-command")
        let printed = directory.file("printed")
        try """
        #!/bin/sh
        set -e
        name=$(basename "$1")
        cp "$1" "\(printed)/.$name"
        mv "\(printed)/.$name" "\(printed)/$name"
        """.write(toFile: command, atomically: true, encoding: .utf8)
        chmod(command, 0o755)

        let busSocket = directory.file("bus")
        port = try LoopbackPort.reserve()
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=\(busSocket)"
        let started: (bus: RunningProcess, printer: RunningProcess)
        do {
            let bus = try Command(
                "/usr/bin/dbus-daemon",
                ["--session", "--nofork", "--nopidfile", "--address=unix:path=\(busSocket)"],
                output: .discard
            ).start()
            do {
                try Self.waitUntil("the printer's D-Bus socket exists", process: bus) {
                    FileManager.default.fileExists(atPath: busSocket)
                }
                let printer = try Command(
                    "/usr/sbin/ippeveprinter",
                    [
                        "-r", "off", "-n", "localhost", "-p", "\(port)", "-d", directory.file("spool"), "-c", command,
                        "-f", "application/pdf", "-m", "Badge Printer", "Muster Test Badges",
                    ],
                    environment: environment,
                    output: .file(directory.file("ippeveprinter.log"))
                ).start()
                started = (bus, printer)
            } catch {
                bus.stop()
                throw error
            }
        } catch {
            let said = (try? String(contentsOfFile: directory.file("ippeveprinter.log"), encoding: .utf8)) ?? ""
            directory.remove()
            throw ToolError("\(error); ippeveprinter said: \(said)")
        }
        bus = started.bus
        printer = started.printer
        do {
            try Self.waitUntil("ippeveprinter listens on port \(port)", process: printer) { Self.accepts(port) }
        } catch {
            let said = log()
            close()
            throw ToolError("\(error); ippeveprinter said: \(said)")
        }
    }

    /// What ippeveprinter logged: the IPP requests it served, and its errors.
    public func log() -> String {
        (try? String(contentsOfFile: directory.file("ippeveprinter.log"), encoding: .utf8)) ?? ""
    }

    /// The documents printed so far, oldest job first.
    public var jobs: [Data] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: printedDirectory)) ?? []
        let printed = names.filter { !$0.hasPrefix(".") }.compactMap { name -> (Int, String)? in
            guard let id = Int(name.prefix { $0.isNumber }) else { return nil }
            return (id, name)
        }
        return printed.sorted { $0.0 < $1.0 }.compactMap {
            FileManager.default.contents(atPath: (printedDirectory as NSString).appendingPathComponent($0.1))
        }
    }

    /// Waits (polling, with a deadline) until at least `count` documents were printed.
    public func waitForJobs(_ count: Int, timeout: Duration = .seconds(20)) async throws -> [Data] {
        if let jobs = try await ChildProcess.poll(within: timeout, { jobs.count >= count ? jobs : nil }) { return jobs }
        throw ToolError("the printer printed \(jobs.count) jobs, expected \(count), within \(timeout): \(log())")
    }

    /// Stops the printer and its bus and removes the directory.
    public func close() {
        printer.stop()
        bus.stop()
        directory.remove()
    }

    /// SIGTERM, then SIGKILL after three seconds; never waits unbounded.
    static func waitUntil(_ what: String, process: RunningProcess, _ condition: () -> Bool) throws {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(15)
        while clock.now < deadline {
            if condition() { return }
            if !process.isRunning { throw ToolError("\(what): the process exited (\(process.terminationStatus))") }
            usleep(20_000)
        }
        throw ToolError("\(what): not within 15 s")
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }
}
