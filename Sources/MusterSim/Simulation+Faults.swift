import MusterCore
import MusterSync

/// The workload and the faults, all drawn from the seed before the run starts.
extension Simulation {
    /// The doors open one second after the last kiosk came up, once the kiosks have found each other.
    var doorsOpen: VirtualTime { VirtualTime.second + options.stagger.nanoseconds * VirtualTime(options.kiosks - 1) }

    /// `checkIns` arrivals at random times over `checkIns / rate` seconds, each at a random kiosk.
    func scheduleWorkload(_ random: inout SimRandom) {
        let window = burstWindow
        for index in 0..<options.checkIns {
            let time = doorsOpen + random.int64(in: 0...window)
            queue.schedule(.checkIn(kiosk: random.int(in: 0...(options.kiosks - 1)), index: index), at: time)
        }
    }

    /// The burst's window, during which faults strike.
    var burstWindow: VirtualTime {
        max(VirtualTime.millisecond * 2, VirtualTime(Double(options.checkIns) / options.rate * 1e9))
    }

    func scheduleFaults(_ random: inout SimRandom) {
        let faults = options.faults
        let window = burstWindow
        if faults.partition {
            let start = doorsOpen + random.int64(in: window / 4...window * 3 / 4)
            let length = random.int64(in: 5 * VirtualTime.second...15 * VirtualTime.second)
            let cut = Self.pick(random.int(in: 1...(options.kiosks - 1)), of: options.kiosks, &random)
            queue.schedule(.partition(side: cut.indices.filter { cut[$0] }), at: start)
            queue.schedule(.heal, at: start + length)
        }
        if faults.crash {
            let crashed = Self.pick(max(1, options.kiosks / 10), of: options.kiosks, &random)
            for index in crashed.indices where crashed[index] {
                let start = doorsOpen + random.int64(in: 0...window)
                queue.schedule(.crash(kiosk: index), at: start)
                queue.schedule(
                    .restart(kiosk: index),
                    at: start + random.int64(in: VirtualTime.second...5 * VirtualTime.second)
                )
            }
        }
    }

    /// Cuts the venue in two: sessions across the cut fall silent and end after the silence timeout.
    func partition(_ side: [Int]) {
        faultsOpen += 1
        network.cut(side)
        for kiosk in kiosks where kiosk.up {
            for peer in kiosk.sessions.keys.sorted() where !network.reachable(kiosk.index, peer) {
                queue.schedule(
                    .sessionLost(kiosk: kiosk.index, peer: peer, session: kiosk.sessions[peer]!),
                    at: now + SyncLimits.silenceTimeout.nanoseconds
                )
            }
        }
    }

    func heal() {
        network.heal()
        endFault()
    }

    /// A fault is over; once the last one is and the workload is done, start probing for convergence.
    func endFault() {
        faultsOpen -= 1
        lastHealTime = now
        startProbing()
    }

    /// From here on nothing new is written and every kiosk is up: count the kiosks that already
    /// hold everything; each store completion then counts its kiosk when it catches up.
    func startProbing() {
        guard !probing, checkInsLeft == 0, pendingCheckIns == 0, faultsOpen == 0 else { return }
        probing = true
        if byzantine != nil {
            queue.schedule(.settle, at: now + ByzantineRun.settleInterval)
            return
        }
        completeKiosks = kiosks.filter(isComplete).count
        if completeKiosks == kiosks.count { convergedAt = now }
    }

    func isComplete(_ kiosk: SimKiosk) -> Bool {
        kiosk.up && kiosk.deltaCount == written.count && kiosk.setHash == writtenHash
    }

    /// A kiosk stored deltas while probing: converged when it was the last one missing any.
    func probe(_ kiosk: SimKiosk) {
        guard byzantine == nil, probing, convergedAt == nil, isComplete(kiosk) else { return }
        completeKiosks += 1
        if completeKiosks == kiosks.count { convergedAt = now }
    }
}
