import MusterTime

extension KioskScreen {
    /// How long the open question may wait: a person's own question waits the idle timeout, but the
    /// guestbook question sits under the welcome (name, walk-in ticket and QR), so it goes when an
    /// outcome would.
    var questionTimeout: Duration {
        if case .noting = state { return min(options.idleTimeout, options.outcomeTimeout) }
        return options.idleTimeout
    }

    /// Carries out whatever deadline has passed: a forgotten question returns to the start, the end of a
    /// back-off gives the prompt back, and an outcome left on screen is wiped.
    mutating func tick() -> [Action] {
        let now = clock.uptime
        if let at = questionExpiresAt, now >= at {
            questionExpiresAt = nil
            return [.clear] + startOver()
        }
        var actions: [Action] = []
        if let at = resumeAt, now >= at {
            resumeAt = nil
            if state == .backingOff {
                state = .idle
                actions = [.show(""), mainPrompt]
            }
        }
        if let at = clearAt, now >= at, state == .idle || state == .backingOff {
            clearAt = nil
            if state == .backingOff, let resumeAt {
                let seconds = Int((resumeAt - now).components.seconds) + 1
                return [.clear] + banner() + [.show(text(.seeStaff(seconds: seconds)))]
            }
            return [.clear] + startOver()
        }
        return actions
    }

    /// A lookup that found no one. The first ``ScreenOptions/freeMisses`` cost nothing; after them each
    /// miss makes the screen drop input for twice as long as the one before (up to the maximum) and
    /// sends the person to staff, so a scanner or keyboard script cannot walk through ticket codes.
    /// The count is forgotten after ``ScreenOptions/missMemory`` without a miss, or at a check-in.
    mutating func missed() -> [Action] {
        let now = clock.uptime
        if let lastMissAt, now - lastMissAt >= options.missMemory { misses = 0 }
        misses += 1
        lastMissAt = now
        guard misses > options.freeMisses else { return finish(.notFound, cue: .failure) }
        let wait = backoff(afterMisses: misses)
        let seconds = Int(wait.components.seconds)
        let lines = finish(.seeStaff(seconds: seconds), cue: .failure, before: [.show(text(.notFound))])
        state = .backingOff
        resumeAt = now + wait
        return lines.filter { if case .prompt = $0 { false } else { true } }
    }

    /// The wait after `misses` misses in a row: nothing up to the free ones, then the first back-off
    /// doubled for each further miss, never more than the maximum.
    func backoff(afterMisses misses: Int) -> Duration {
        Backoff(initial: options.firstBackoff, maximum: options.maxBackoff)
            .delay(afterFailures: misses - options.freeMisses)
    }
}
