import Logging
import MusterCore

/// Discovery bookkeeping as a pure state machine: Avahi's callbacks go in, ``Action``s come out,
/// and ``AvahiDriver`` carries them out. No C, no threads, so every rule is unit-tested.
///
/// The rules it keeps:
/// - One peer per service name, however many (interface, protocol) instances announce it; the
///   peer is gone when the last instance is withdrawn or none of them resolves to a peer. The
///   reported address prefers IPv4, then the smallest address, so it does not flap.
/// - `appeared` only on change, `disappeared` only for a peer that had appeared.
/// - Own and other-venue services never become peers.
/// - A name collision renames the service with Avahi's rule and publishes again.
/// - When avahi-daemon goes away, known peers are kept (sync goes on with them); after the daemon
///   is back and the first browse settles (`ALL_FOR_NOW`), those no longer announced disappear.
struct DiscoveryMachine {
    /// The name currently published (changes after a collision).
    private(set) var serviceName: String
    private let classifier: PeerClassifier
    private let rename: (String) throws(DiscoveryError) -> String

    /// nil until the first connection attempt says either way.
    private var daemonAvailable: Bool?
    private var browsing = false
    private var instances: [String: Set<ServiceInstance>] = [:]
    private var resolutions: [ServiceInstance: Resolution] = [:]
    /// What the consumer has been told, by service name.
    private var reported: [String: DiscoveredPeer] = [:]
    /// Peers reported before the daemon went away and not seen since.
    private var stale: Set<String> = []

    init(
        serviceName: String,
        classifier: PeerClassifier,
        rename: @escaping (String) throws(DiscoveryError) -> String = ServiceName.alternative(to:)
    ) {
        self.serviceName = serviceName
        self.classifier = classifier
        self.rename = rename
    }

    /// The peers the consumer currently knows, by service name.
    var knownPeers: [String: DiscoveredPeer] { reported }

    // MARK: - Connection

    /// `avahi_client_new` failed (no system D-Bus, out of memory).
    /// Logs a warning the first time only: it repeats at every backoff step until the bus is back.
    mutating func connectFailed(_ reason: String) -> [Action] {
        let level: Logger.Level = daemonAvailable == false ? .debug : .warning
        return [.log(level, "cannot reach avahi-daemon: \(reason); retrying")] + markUnavailable(reason) + [.reconnect]
    }

    mutating func clientStateChanged(_ state: ClientState) -> [Action] {
        switch state {
        case .running:
            var actions: [Action] = [.resetBackoff]
            if daemonAvailable != true {
                daemonAvailable = true
                actions += [.log(.notice, "avahi-daemon is available"), .emit(.daemonAvailable)]
            }
            // Every entry into RUNNING follows a reset or a new client: the group must be (re)filled.
            actions.append(.publish(serviceName: serviceName))
            if !browsing {
                browsing = true
                actions.append(.browse)
            }
            return actions
        case .registering, .collision:
            return [.log(.info, "avahi-daemon is registering its host name; withdrawing until it is done"), .withdraw]
        case .connecting:
            // libavahi-client waits for the daemon by watching its bus name change owner. A daemon that
            // took the name while the client's first D-Bus call was still timing out (25 s, seen in the
            // 50-kiosk lab under load) is never noticed, and the client waits forever. So a waiting
            // client is replaced after the backoff; one that reaches RUNNING first cancels that.
            let reason = "avahi-daemon is not running"
            let level: Logger.Level = daemonAvailable == false ? .debug : .warning
            return [.log(level, "\(reason); waiting for it")] + markUnavailable(reason) + forgetLookups()
                + [.reconnect]
        case .failure(let reason):
            return [.log(.warning, "lost avahi-daemon: \(reason); reconnecting")] + markUnavailable(reason)
                + forgetLookups() + [.reconnect]
        }
    }

    /// A libavahi call made while carrying out an action failed; start over with a new client.
    mutating func operationFailed(_ error: DiscoveryError) -> [Action] {
        [.log(.error, "\(error.message); reconnecting to avahi-daemon")] + forgetLookups() + [.reconnect]
    }

    // MARK: - Publishing

    mutating func groupStateChanged(_ state: GroupState) -> [Action] {
        switch state {
        case .uncommitted, .registering:
            return []
        case .established:
            return [.log(.info, "published \(MusterTXTRecord.serviceType) as '\(serviceName)'")]
        case .collision:
            return publishCollided()
        case .failure(let reason):
            return operationFailed(DiscoveryError(.avahiCall, "publishing '\(serviceName)' failed: \(reason)"))
        }
    }

    /// The name is taken (by another host, or by another client of the same daemon): pick Avahi's
    /// alternative and publish again.
    mutating func publishCollided() -> [Action] {
        let old = serviceName
        do {
            serviceName = try rename(old)
        } catch {
            return operationFailed(error)
        }
        return [
            .log(.notice, "service name '\(old)' is taken on the LAN; publishing as '\(serviceName)'"),
            .publish(serviceName: serviceName),
        ]
    }

    // MARK: - Browsing

    /// The browser saw an instance. Even this client's own announcement is resolved (and then
    /// ignored by fingerprint): Avahi reports a name once, so after this kiosk loses a name
    /// collision the instance it saw as its own *is* the other kiosk, with no new browse event.
    mutating func serviceFound(_ instance: ServiceInstance) -> [Action] {
        guard instances[instance.name, default: []].insert(instance).inserted else { return [] }
        return [.resolve(instance)]
    }

    mutating func serviceRemoved(_ instance: ServiceInstance) -> [Action] {
        guard instances[instance.name]?.remove(instance) != nil else { return [] }
        if instances[instance.name]?.isEmpty == true { instances[instance.name] = nil }
        resolutions[instance] = nil
        return [.stopResolving(instance)] + reconcile(instance.name)
    }

    /// `AVAHI_BROWSER_ALL_FOR_NOW`: the browser has reported what the LAN answered. Peers kept
    /// from before a daemon restart that are still not announced are gone.
    mutating func browseSettled() -> [Action] {
        let gone = stale.filter { instances[$0] == nil }.sorted()
        stale = []
        return gone.flatMap { name -> [Action] in
            reported[name] = nil
            return [
                .log(.info, "peer '\(Self.printable(name))' is no longer announced"),
                .emit(.disappeared(serviceName: name)),
            ]
        }
    }

    mutating func browseFailed(_ reason: String) -> [Action] {
        operationFailed(DiscoveryError(.avahiCall, "browsing \(MusterTXTRecord.serviceType) failed: \(reason)"))
    }

    // MARK: - Resolving

    mutating func resolved(_ service: ResolvedService) -> [Action] {
        let instance = service.instance
        guard instances[instance.name]?.contains(instance) == true else { return [] }
        let verdict = classifier.classify(service)
        let resolution: Resolution
        var actions: [Action] = []
        switch verdict {
        case .peer(let peer):
            resolution = .peer(peer, isIPv4: service.isIPv4)
        case .own, .otherVenue, .malformed:
            resolution = .ignored
            if resolutions[instance] != .ignored {
                actions.append(
                    .log(
                        Self.level(of: verdict),
                        "ignoring '\(Self.printable(instance.name))': \(Self.reason(verdict))"
                    )
                )
            }
        }
        resolutions[instance] = resolution
        return actions + reconcile(instance.name)
    }

    mutating func resolveFailed(_ instance: ServiceInstance, reason: String) -> [Action] {
        guard instances[instance.name]?.contains(instance) == true else { return [] }
        resolutions[instance] = .failed
        return [.log(.info, "cannot resolve '\(Self.printable(instance.name))': \(reason)"), .stopResolving(instance)]
            + reconcile(instance.name)
    }

    // MARK: - Private

    private mutating func markUnavailable(_ reason: String) -> [Action] {
        guard daemonAvailable != false else { return [] }
        daemonAvailable = false
        return [.emit(.daemonUnavailable(reason))]
    }

    /// The client's group, browser and resolvers are going away; keep what was reported.
    private mutating func forgetLookups() -> [Action] {
        stale.formUnion(reported.keys)
        instances = [:]
        resolutions = [:]
        browsing = false
        return [.dropAvahiObjects]
    }

    /// Brings what was reported for `name` in line with its instances.
    private mutating func reconcile(_ name: String) -> [Action] {
        let current = instances[name] ?? []
        let candidates = current.compactMap { instance -> (peer: DiscoveredPeer, isIPv4: Bool)? in
            guard case .peer(let peer, let isIPv4) = resolutions[instance] else { return nil }
            return (peer, isIPv4)
        }
        if let best = candidates.min(by: Self.preferred)?.peer {
            stale.remove(name)
            guard reported[name] != best else { return [] }
            reported[name] = best
            return [
                .log(.info, "peer '\(Self.printable(name))' (\(best.fingerprint)) at \(best.host):\(best.port)"),
                .emit(.appeared(best)),
            ]
        }
        guard reported[name] != nil else { return [] }
        // Wait for resolvers still running, and (after a restart) for the browse to settle.
        if current.contains(where: { resolutions[$0] == nil }) { return [] }
        if current.isEmpty && stale.contains(name) { return [] }
        reported[name] = nil
        stale.remove(name)
        return [.log(.info, "peer '\(Self.printable(name))' is gone"), .emit(.disappeared(serviceName: name))]
    }

    private static func preferred(
        _ a: (peer: DiscoveredPeer, isIPv4: Bool),
        _ b: (peer: DiscoveredPeer, isIPv4: Bool)
    ) -> Bool {
        if a.isIPv4 != b.isIPv4 { return a.isIPv4 }
        if a.peer.host != b.peer.host { return a.peer.host < b.peer.host }
        return a.peer.port < b.peer.port
    }

    private static func level(of verdict: PeerClassifier.Verdict) -> Logger.Level {
        if case .malformed = verdict { return .notice }
        return .debug
    }

    private static func reason(_ verdict: PeerClassifier.Verdict) -> String {
        switch verdict {
        case .peer: "a peer"
        case .own: "it is this kiosk"
        case .otherVenue(let venue): "it belongs to venue \(venue)"
        case .malformed(let error): error.description
        }
    }

    /// Service names come from the LAN: keep escape sequences out of the log.
    static func printable(_ name: String) -> String {
        TerminalText.sanitize(name, maxCharacters: 80)
    }
}
