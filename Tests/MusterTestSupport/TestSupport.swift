import Foundation
public import Logging

/// Helpers shared by the live test targets (daemon, client).
public enum TestSupport {
    /// A logger that drops everything, for code under test that wants one.
    public static let quietLogger = Logger(label: "muster-tests", factory: { _ in SwiftLogNoOpLogHandler() })

    /// A Python client for `python3 -c`: connects to the Unix socket `argv[1]`, sends each further
    /// argument as a request line on that one connection and prints each answer line. Run under
    /// `setpriv`, the process that connects is exactly the user the test chose.
    public static let controlLineClient = """
        import socket, sys
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(sys.argv[1])
        f = s.makefile("rwb")
        for line in sys.argv[2:]:
            f.write(line.encode() + b"\\n"); f.flush()
            sys.stdout.write(f.readline().decode())
        """

    /// Runs blocking socket code on a plain thread, never on the cooperative pool that the code
    /// under test needs (on a 2-core machine a blocked pool thread stalls the server).
    public static func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }
}
