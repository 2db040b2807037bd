import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A network Zebra as CUPS's `socket` backend (AppSocket / JetDirect, port 9100) sees one, on
/// 127.0.0.1 and a free port: every connection is one job, its bytes are the document.
///
/// A Zebra on the network is added as a raw queue on `socket://ADDRESS:9100` and fed ZPL; the
/// ZPL badge test points the private cupsd's `zebra` queue at this listener
/// (`socket://127.0.0.1:PORT`), so the job goes through the real scheduler and backend and the
/// ZPL can be read back. (The virtual IPP printer cannot stand in for it: ippeveprinter refuses a
/// raw document it cannot recognise by its first bytes.)
public final class LoopbackPrinter: Sendable {
    public let port: UInt16
    private let listener: Int32
    private let received = Mutex<[Data]>([])

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ToolError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            Glibc.close(fd)
            throw ToolError("bind/listen: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in self.acceptJobs() }
        thread.start()
    }

    /// The documents received so far, oldest first.
    public var jobs: [Data] { received.withLock { $0 } }

    /// Waits (polling, with a deadline) until at least `count` documents arrived.
    public func waitForJobs(_ count: Int, timeout: Duration = .seconds(20)) async throws -> [Data] {
        if let jobs = try await ChildProcess.poll(within: timeout, { jobs.count >= count ? jobs : nil }) { return jobs }
        throw ToolError("the printer received \(jobs.count) jobs, expected \(count), within \(timeout)")
    }

    /// Stops accepting; the accept loop ends.
    public func close() {
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
    }

    private func acceptJobs() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                return
            }
            var document = Data()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(connection, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                document.append(contentsOf: buffer[0..<count])
            }
            Glibc.close(connection)
            received.withLock { $0.append(document) }
        }
    }
}
