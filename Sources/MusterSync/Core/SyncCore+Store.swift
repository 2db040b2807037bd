import MusterCore
import MusterRules

/// The way to the store: what peers send waits here as requests, goes to the store in groups (one
/// at a time), comes back as one result that is attributed to each request, and holds a peer's
/// reading back while too much of it waits (read-ahead). The daemon's driver and the simulator
/// carry out ``SyncOutput/store(_:)``, ``SyncOutput/pauseReading(_:)`` and
/// ``SyncOutput/resumeReading(_:)``; neither decides any of it.
extension SyncCore {
    /// Deltas of a peer's frame for the store: they join the next group. A peer with more than
    /// ``Configuration/readAheadDeltas`` deltas waiting is not read until they drop below it (the
    /// back-pressure on a peer that sends faster than this kiosk stores).
    mutating func queueStore(_ deltas: [SignedDelta], from peer: AuthorID, into out: inout [SyncOutput]) {
        for delta in deltas { inFlight[delta.author] = max(inFlight[delta.author] ?? 0, delta.seq) }
        waitingStores.append(StoreRequest(id: nextStoreID, deltas: deltas, peer: peer))
        nextStoreID += 1
        sessions[peer]?.storing += 1
        let waiting = readAhead[peer, default: 0] + deltas.count
        readAhead[peer] = waiting
        if waiting > configuration.readAheadDeltas, pausedReading.insert(peer).inserted {
            out.append(.pauseReading(peer))
        }
        startGroup(into: &out)
    }

    /// Sends the next group to the store unless one is under way: the requests waiting, oldest
    /// first, up to ``Configuration/groupCommitDeltas`` deltas (at least one request).
    mutating func startGroup(into out: inout [SyncOutput]) {
        guard committing == nil, !waitingStores.isEmpty else { return }
        let taken = GroupCommit.size(of: waitingStores, limit: configuration.groupCommitDeltas) { $0.deltas.count }
        let requests = Array(waitingStores.prefix(taken))
        // Taken at once: thousands of one-delta requests may wait, and removing them one by one
        // from the front moved the rest each time.
        waitingStores.removeFirst(taken)
        let group = StoreGroup(
            id: nextGroupID,
            deltas: requests.count == 1 ? requests[0].deltas : requests.flatMap(\.deltas)
        )
        nextGroupID += 1
        committing = (group.id, requests)
        out.append(.store(group))
    }

    /// The store reported on the group under way: each request hears its share, readers held back
    /// resume, the store's heads are read after a cut (fork evidence passes on once they are in,
    /// ``SyncInput/storeHeads(_:)``), and the next group goes.
    mutating func groupStored(_ result: StoreResult, now: Duration, into out: inout [SyncOutput]) {
        guard let group = committing, group.id == result.id else { return }
        committing = nil
        let outcomes = Self.attribute(result, to: group.requests)
        for (request, outcome) in zip(group.requests, outcomes) {
            requestStored(request, outcome, now: now, into: &out)
        }
        for request in group.requests { releaseReadAhead(request, into: &out) }
        if result.cut {
            for delta in result.forkEvidence where !pendingEvidence.contains(delta) { pendingEvidence.append(delta) }
            out.append(.readHeads)
        }
        startGroup(into: &out)
    }

    /// Each delta's outcome is the request's that brought it first (two peers may send the same);
    /// a refusal that names no delta concerns every request.
    static func attribute(_ result: StoreResult, to requests: [StoreRequest]) -> [RequestOutcome] {
        guard requests.count > 1 else {
            return requests.map { _ in
                RequestOutcome(
                    applied: result.applied,
                    rejected: result.rejected,
                    failed: result.failed,
                    signatureChecked: result.signatureChecked
                )
            }
        }
        var owner: [DeltaRef: Int] = [:]
        for (index, request) in requests.enumerated() {
            for delta in request.deltas where owner[delta.ref] == nil { owner[delta.ref] = index }
        }
        var rejected = [[DeltaRejection]](repeating: [], count: requests.count)
        for error in result.rejected {
            if let ref = error.ref, let index = owner[ref] {
                rejected[index].append(error)
            } else {
                for index in requests.indices { rejected[index].append(error) }
            }
        }
        var applied = [[SignedDelta]](repeating: [], count: requests.count)
        for delta in result.applied { if let index = owner[delta.ref] { applied[index].append(delta) } }
        return requests.indices.map {
            RequestOutcome(
                applied: applied[$0],
                rejected: rejected[$0],
                failed: result.failed,
                signatureChecked: result.signatureChecked
            )
        }
    }

    /// The request's deltas no longer wait: its peer is read again once few enough do.
    mutating func releaseReadAhead(_ request: StoreRequest, into out: inout [SyncOutput]) {
        let left = readAhead[request.peer, default: 0] - request.deltas.count
        readAhead[request.peer] = left > 0 ? left : nil
        if left <= configuration.readAheadDeltas, pausedReading.remove(request.peer) != nil {
            out.append(.resumeReading(request.peer))
        }
    }

    /// The store's outcome for one request of a group: new heads, new deltas pushed on, repairs
    /// moved forward.
    mutating func requestStored(
        _ request: StoreRequest,
        _ result: RequestOutcome,
        now: Duration,
        into out: inout [SyncOutput]
    ) {
        let session: Void? = inSession(request.peer) { session in
            session.storing -= 1
            session.lastHeard = now
        }
        var through: [AuthorID: UInt64] = [:]
        for delta in request.deltas { through[delta.author] = max(through[delta.author] ?? 0, delta.seq) }
        advanceHeads(result.applied)
        forked.formUnion(result.forkedAuthors)
        // A broken chain: our version of the seq below the refused one (our head's, when the run
        // broke just above it) goes to the peer, whose store compares it with its own (as for heads
        // that differ at one seq, ``probeForks(_:from:into:)``).
        if !result.brokenChains.isEmpty, session != nil {
            for (author, refused) in result.brokenChains.sorted(by: { $0.key < $1.key }) {
                guard let head = heads[author] else { continue }
                let seq = min(head.seq, refused &- 1)
                guard seq > 0, seq <= head.seq else { continue }
                probeFork(author, seq: seq, peer: request.peer, now: now, into: &out)
            }
        }
        // The peer's own deltas are committed here: it hears so at once (its screen may be waiting
        // to say "Checked in", ``SyncMessage/heads(_:)``), with our head of its chain.
        if !result.failed, let sent = through[request.peer], let held = heads[request.peer], held.seq >= sent,
            sessions[request.peer]?.state == .established
        {
            out.append(.send(to: request.peer, .heads([held])))
        }
        if !result.failed {
            // Deltas the store already held (another session's copy was committed first) are copies too,
            // counted for the peer that sent them even if its session has ended since.
            let applied = Set(result.applied.map(\.ref))
            let copies = request.deltas.count {
                !applied.contains($0.ref) && !result.refusedAuthors.contains($0.author)
            }
            tallies[request.peer, default: PeerTally()].copiesReceived += copies
        }
        for (author, seq) in through where inFlight[author] == seq {
            // The last request in flight for this author is done, stored or not.
            inFlight[author] = nil
        }
        if !result.applied.isEmpty {
            recent.insert(result.applied, signatureChecked: result.signatureChecked)
            stateVersion &+= 1
            relay(result.applied, from: request.peer, now: now, into: &out)
        }
        for (author, entry) in announced where effective(author) >= entry.through { announced[author] = nil }
        // A store that took the whole request only moves heads up to what was in flight: nothing new
        // can be lacking unless a repair just finished (its next chunk, or all its peer holds) or
        // something was refused. Skipping the scan then matters: it runs over every peer's every author.
        let refused = result.failed || result.applied.count < request.deltas.count
        if refused || repairs.contains(where: { repairIsOver($0.key, $0.value) }) {
            scheduleRepairs(now: now, into: &out)
        }
    }
}
