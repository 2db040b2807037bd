import Foundation

/// A cupsd of the test's own: its config, spool, cache and log in a temporary directory, listening
/// only on a Unix socket there, never on the network and never touching the host's CUPS. One
/// queue, `badge`, sends jobs through CUPS's `ipp` backend to a ``VirtualPrinter`` (ippeveprinter)
/// on localhost, and the backend follows each job on the printer until it completed.
///
/// The queue is raw: the badge is already a PDF and the printer takes PDF, so no filter runs and
/// the document the printer receives is byte for byte the one the kiosk sent (a real label
/// printer's queue runs the driver's filters instead). The socket is a file, so kiosks in the lab's
/// network namespaces reach the same cupsd through it.
///
/// cupsd refuses to run its backends as root, so it runs them as `lp`; the test must run as
/// root (``isAvailable``). ``shutdown()`` stops cupsd and the printer and removes everything; call
/// it in a `defer`.
public final class PrivateCups: @unchecked Sendable {
    // @unchecked: the stored properties are set once in init and only read afterwards, except
    // `process`, which only `shutdown()` touches (once, from the test's own task).
    public let directory: TemporaryDirectory
    public let printer: VirtualPrinter
    public let queue = "badge"
    /// A second, raw queue `zebra` on `socket://` to a ``LoopbackPrinter``: how a network Zebra is
    /// set up for ZPL.
    public let zebra: LoopbackPrinter
    public let zebraQueue = "zebra"
    private let process: RunningProcess

    /// The socket cupsd listens on: what `cups_server` is set to.
    public var socketPath: String { directory.file("cups.sock") }

    /// Root (cupsd runs backends as lp and needs to switch to it) and the cups packages.
    public static var isAvailable: Bool {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/cupsd")
            && FileManager.default.isExecutableFile(atPath: "/usr/sbin/lpadmin") && VirtualPrinter.isAvailable
    }

    public init() throws {
        directory = try TemporaryDirectory("muster-cups")
        printer = try VirtualPrinter()
        zebra = try LoopbackPrinter()
        let root = directory.path
        for sub in ["spool", "spool/tmp", "cache", "state", "log", "ppd"] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(sub)", withIntermediateDirectories: true)
        }
        try """
        Listen \(root)/cups.sock
        LogLevel warn
        Browsing Off
        DefaultAuthType None
        <Location />
          Order allow,deny
          Allow all
        </Location>
        <Policy default>
          <Limit All>
            Order deny,allow
          </Limit>
        </Policy>
        """.write(toFile: "\(root)/cupsd.conf", atomically: true, encoding: .utf8)
        try """
        ServerRoot \(root)
        RequestRoot \(root)/spool
        TempDir \(root)/spool/tmp
        CacheDir \(root)/cache
        StateDir \(root)/state
        AccessLog \(root)/log/access_log
        ErrorLog \(root)/log/error_log
        PageLog \(root)/log/page_log
        User lp
        Group lp
        """.write(toFile: "\(root)/cups-files.conf", atomically: true, encoding: .utf8)
        do {
            process = try Command(
                "/usr/sbin/cupsd",
                ["-f", "-c", "\(root)/cupsd.conf", "-s", "\(root)/cups-files.conf"],
                output: .discard
            ).start()
        } catch {
            printer.close()
            zebra.close()
            directory.remove()
            throw error
        }
        do {
            try waitUntilRunning()
            try lp("lpadmin", ["-p", queue, "-E", "-v", printer.uri, "-m", "raw"])
            try lp("lpadmin", ["-p", zebraQueue, "-E", "-v", "socket://127.0.0.1:\(zebra.port)", "-m", "raw"])
        } catch {
            shutdown()
            throw error
        }
    }

    /// `cupsdisable`: the queue stops, as when a label printer runs out of labels.
    public func stopQueue() throws { try lp("cupsdisable", [queue]) }

    /// `cupsenable`: the queue runs again.
    public func startQueue() throws { try lp("cupsenable", [queue]) }

    /// Stops cupsd, the printer, and removes the directory.
    public func shutdown() {
        process.stop()
        printer.close()
        zebra.close()
        directory.remove()
    }

    /// Runs a CUPS tool against this cupsd (`-h` its socket).
    @discardableResult
    public func lp(_ tool: String, _ arguments: [String]) throws -> ToolRun {
        let run = try ToolRun.run("/usr/sbin/\(tool)", ["-h", socketPath] + arguments)
        guard run.status == 0 else { throw ToolError("\(tool) \(arguments): \(run.errorOutput)") }
        return run
    }

    private func waitUntilRunning() throws {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(15)
        while clock.now < deadline {
            if !process.isRunning { throw ToolError("cupsd exited (status \(process.terminationStatus))") }
            if FileManager.default.fileExists(atPath: socketPath),
                let run = try? ToolRun.run("/usr/bin/lpstat", ["-h", socketPath, "-r"]), run.status == 0,
                run.output.contains("is running")
            {
                return
            }
            usleep(50_000)
        }
        throw ToolError("cupsd did not start within 15 s")
    }
}
