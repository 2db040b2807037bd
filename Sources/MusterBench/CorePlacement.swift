import Foundation

/// Places the lab's processes on CPUs, so that one kiosk can be measured as the box it would be at
/// a venue: its own CPU for its `musterd`, avahi-daemon, D-Bus and `muster kiosk`, while the other
/// kiosks of the lab share the remaining CPUs.
///
/// On a shared machine every check-in wakes the daemons of all the other kiosks at once (they
/// receive and commit it), and on 2 cores they take the CPU that the kiosk being timed needs to
/// print its answer; at a venue those daemons run on their own boxes.
enum CorePlacement {
    /// The CPUs this process may run on (`Cpus_allowed_list` in /proc/self/status), lowest first.
    static func allowedCPUs() -> [Int] {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }) else {
            return []
        }
        return line.dropFirst("Cpus_allowed_list:".count).split(separator: ",").flatMap { part -> [Int] in
            let bounds = part.trimmingCharacters(in: .whitespaces).split(separator: "-").compactMap { Int($0) }
            guard let low = bounds.first else { return [] }
            return Array(low...(bounds.last ?? low))
        }
    }

    /// Pins every thread of `pid` to `cpus` (util-linux's taskset; new threads inherit it).
    static func pin(_ pid: Int32, to cpus: [Int]) {
        let list = cpus.map(String.init).joined(separator: ",")
        _ = try? Shell.run(["/usr/bin/env", "taskset", "--all-tasks", "--pid", "--cpu-list", list, "\(pid)"])
    }

    /// Every process in kiosk `kiosk`'s network namespace (its musterd, avahi-daemon and D-Bus).
    static func processes(of kiosk: Int, lab: Lab) -> [Int32] {
        let result = try? Shell.run(["/usr/bin/env", "ip", "netns", "pids", "\(Lab.prefix)-k\(kiosk)"])
        return (result?.output ?? "").split(whereSeparator: \.isNewline).compactMap { Int32($0) }
    }

    /// Gives kiosk `kiosk` and this process (hence the `muster kiosk` it starts) the first CPU and
    /// the other kiosks the rest, runs `body`, then lets everything run anywhere again. Nil when
    /// there is a single CPU.
    static func withOwnCore<T>(for kiosk: Int, lab: Lab, _ body: () throws -> T) rethrows -> T? {
        let cpus = allowedCPUs()
        guard cpus.count >= 2 else { return nil }
        let own = [cpus[0]]
        let rest = Array(cpus.dropFirst())
        let others = (1...lab.kiosks).filter { $0 != kiosk }.flatMap { processes(of: $0, lab: lab) }
        let mine = processes(of: kiosk, lab: lab) + [getpid()]
        defer { for pid in others + mine { pin(pid, to: cpus) } }
        for pid in others { pin(pid, to: rest) }
        for pid in mine { pin(pid, to: own) }
        return try body()
    }
}
