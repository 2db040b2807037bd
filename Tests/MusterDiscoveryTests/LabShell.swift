import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs the lab's commands from the test process with `posix_spawnp`.
///
/// Not Foundation's `Process`: its children inherit the test process's blocked signal mask, and a
/// daemon started that way (`dbus-daemon --fork`) keeps SIGTERM blocked forever, so the next test
/// cannot stop it. Here every child starts with an empty mask and default dispositions, as it
/// would from a shell.
enum LabShell {
    /// Runs `arguments` (looked up on PATH), waits, and returns its standard output; throws on a
    /// non-zero exit. With `capture: false` the output goes to /dev/null, for commands that leave a
    /// daemon behind which must not hold our pipe open.
    @discardableResult
    static func run(_ arguments: [String], capture: Bool = true) throws -> String {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipeFDs: [Int32] = [-1, -1]
        if capture {
            guard pipe(&pipeFDs) == 0 else { throw LabError("pipe: errno \(errno)") }
            posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
            posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
            posix_spawn_file_actions_addclose(&actions, pipeFDs[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer {
            for argument in argv { free(argument) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, environ)
        if capture { close(pipeFDs[1]) }
        guard spawned == 0 else {
            if capture { close(pipeFDs[0]) }
            throw LabError("\(arguments[0]): cannot start (error \(spawned))")
        }
        var output = [UInt8]()
        if capture {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(pipeFDs[0], &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                output += buffer[0..<count]
            }
            close(pipeFDs[0])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED && WEXITSTATUS == 0, spelled out: the macros are not imported.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw LabError("\(arguments.joined(separator: " ")) failed (wait status \(status))")
        }
        return String(decoding: output, as: UTF8.self)
    }
}
