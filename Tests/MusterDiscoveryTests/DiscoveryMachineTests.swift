import Testing

@testable import MusterDiscovery

/// The discovery bookkeeping, driven the way Avahi's callbacks drive it, without a daemon.
@Suite("DiscoveryMachine")
struct DiscoveryMachineTests {
    var machine = DiscoveryMachine(serviceName: "muster-\(Fixture.ownFingerprint)", classifier: Fixture.classifier())

    static func events(_ actions: [DiscoveryMachine.Action]) -> [DiscoveryEvent] {
        actions.compactMap { if case .emit(let event) = $0 { event } else { nil } }
    }

    /// Everything but logs and events: what the driver does with Avahi.
    static func work(_ actions: [DiscoveryMachine.Action]) -> [DiscoveryMachine.Action] {
        actions.filter {
            switch $0 {
            case .log, .emit: false
            default: true
            }
        }
    }

    static func peer(_ name: String, host: String = "10.77.0.2", fp: String = "aaaa-bbbb-cccc-dddd") -> DiscoveredPeer {
        DiscoveredPeer(
            serviceName: name,
            host: host,
            port: 7420,
            venueID: Fixture.venue,
            fingerprint: fp,
            protocolVersion: 1
        )
    }

    /// Brings the machine to RUNNING with one resolved peer `muster-b`.
    mutating func runningWithPeer() -> ServiceInstance {
        _ = machine.clientStateChanged(.running)
        let b = Fixture.instance("muster-b")
        _ = machine.serviceFound(b)
        _ = machine.resolved(Fixture.resolved(b))
        return b
    }

    @Test mutating func runningPublishesBrowsesAndSaysSoOnce() {
        let actions = machine.clientStateChanged(.running)
        #expect(Self.events(actions) == [.daemonAvailable])
        #expect(
            Self.work(actions) == [.resetBackoff, .publish(serviceName: "muster-\(Fixture.ownFingerprint)"), .browse]
        )
    }

    @Test mutating func hostNameReRegistrationWithdrawsAndRepublishesWithoutABrowserOrEvent() {
        _ = machine.clientStateChanged(.running)
        #expect(Self.work(machine.clientStateChanged(.registering)) == [.withdraw])
        let again = machine.clientStateChanged(.running)
        #expect(Self.events(again).isEmpty)
        #expect(Self.work(again) == [.resetBackoff, .publish(serviceName: "muster-\(Fixture.ownFingerprint)")])
    }

    @Test mutating func aMissingDaemonIsReportedOnceAcrossRetries() {
        #expect(Self.events(machine.connectFailed("no system bus")) == [.daemonUnavailable("no system bus")])
        #expect(Self.work(machine.connectFailed("no system bus")) == [.reconnect])
        #expect(Self.events(machine.clientStateChanged(.connecting)).isEmpty)
        #expect(Self.events(machine.clientStateChanged(.running)) == [.daemonAvailable])
    }

    /// A waiting client may never see the daemon arrive (it took its bus name while the client's
    /// first call was timing out): the client is replaced after the backoff, and the warning is not
    /// repeated each time; reaching RUNNING cancels the pending replacement (`.resetBackoff`).
    @Test mutating func aWaitingClientIsReplacedUntilTheDaemonAnswers() {
        let first = machine.clientStateChanged(.connecting)
        #expect(Self.events(first) == [.daemonUnavailable("avahi-daemon is not running")])
        #expect(Self.work(first) == [.dropAvahiObjects, .reconnect])
        #expect(first.contains(.log(.warning, "avahi-daemon is not running; waiting for it")))
        let again = machine.clientStateChanged(.connecting)
        #expect(Self.work(again) == [.dropAvahiObjects, .reconnect])
        #expect(again.contains(.log(.debug, "avahi-daemon is not running; waiting for it")))
        #expect(Self.events(again).isEmpty)
        let running = machine.clientStateChanged(.running)
        #expect(Self.work(running).first == .resetBackoff)
        #expect(Self.events(running) == [.daemonAvailable])
    }

    @Test mutating func aResolvedPeerAppearsOnceAndDisappearsWithItsLastInstance() {
        _ = machine.clientStateChanged(.running)
        let v4 = Fixture.instance("muster-b", interface: 2, protocol: 0)
        let v6 = Fixture.instance("muster-b", interface: 2, protocol: 1)
        #expect(Self.work(machine.serviceFound(v4)) == [.resolve(v4)])
        #expect(Self.work(machine.serviceFound(v4)).isEmpty)  // a repeated NEW
        #expect(Self.work(machine.serviceFound(v6)) == [.resolve(v6)])

        #expect(Self.events(machine.resolved(Fixture.resolved(v4))) == [.appeared(Self.peer("muster-b"))])
        #expect(Self.events(machine.resolved(Fixture.resolved(v4))).isEmpty)  // same answer again
        // The IPv6 answer does not replace the IPv4 one.
        #expect(Self.events(machine.resolved(Fixture.resolved(v6, host: "fe80::2%veth-k1", isIPv4: false))).isEmpty)

        let first = machine.serviceRemoved(v4)
        #expect(Self.work(first) == [.stopResolving(v4)])
        #expect(Self.events(first) == [.appeared(Self.peer("muster-b", host: "fe80::2%veth-k1"))])
        #expect(Self.events(machine.serviceRemoved(v6)) == [.disappeared(serviceName: "muster-b")])
        #expect(machine.knownPeers.isEmpty)
    }

    @Test mutating func ipv4IsPreferredWhicheverArrivesFirst() {
        _ = machine.clientStateChanged(.running)
        let v4 = Fixture.instance("muster-b", protocol: 0)
        let v6 = Fixture.instance("muster-b", protocol: 1)
        _ = machine.serviceFound(v4)
        _ = machine.serviceFound(v6)
        #expect(
            Self.events(machine.resolved(Fixture.resolved(v6, host: "fe80::2%eth0", isIPv4: false)))
                == [.appeared(Self.peer("muster-b", host: "fe80::2%eth0"))]
        )
        #expect(Self.events(machine.resolved(Fixture.resolved(v4))) == [.appeared(Self.peer("muster-b"))])
    }

    @Test mutating func aChangedAddressIsReportedAgain() {
        let b = runningWithPeer()
        #expect(
            Self.events(machine.resolved(Fixture.resolved(b, host: "10.77.0.9")))
                == [.appeared(Self.peer("muster-b", host: "10.77.0.9"))]
        )
    }

    @Test mutating func ownAndOtherVenueServicesNeverBecomePeers() {
        _ = machine.clientStateChanged(.running)
        let own = Fixture.instance("muster-own")
        _ = machine.serviceFound(own)
        #expect(Self.events(machine.resolved(Fixture.resolved(own, fp: Fixture.ownFingerprint))).isEmpty)

        let stranger = Fixture.instance("muster-x")
        _ = machine.serviceFound(stranger)
        let txt = Fixture.txt(venue: Fixture.otherVenue, fp: "eeee")
        #expect(Self.events(machine.resolved(Fixture.resolved(stranger, txt: txt))).isEmpty)
        #expect(Self.events(machine.serviceRemoved(stranger)).isEmpty)  // it never appeared
        #expect(machine.knownPeers.isEmpty)
    }

    /// Found in the lab: this kiosk published `muster-k2`, lost the collision to kiosk k2 and
    /// renamed itself; Avahi never reports `muster-k2` again, so the instance first seen as our own
    /// must be resolved and followed until it turns out to be k2.
    @Test mutating func aNameFirstSeenAsOurOwnBecomesThePeerThatWonTheCollision() {
        _ = machine.clientStateChanged(.running)
        let contested = Fixture.instance("muster-k2")
        #expect(Self.work(machine.serviceFound(contested)) == [.resolve(contested)])
        #expect(Self.events(machine.resolved(Fixture.resolved(contested, fp: Fixture.ownFingerprint))).isEmpty)
        _ = machine.groupStateChanged(.collision)
        #expect(
            Self.events(machine.resolved(Fixture.resolved(contested, fp: "k2")))
                == [.appeared(Self.peer("muster-k2", fp: "k2"))]
        )
    }

    @Test mutating func aPeerThatMovesToAnotherVenueDisappears() {
        let b = runningWithPeer()
        let txt = Fixture.txt(venue: Fixture.otherVenue, fp: "aaaa-bbbb-cccc-dddd")
        #expect(Self.events(machine.resolved(Fixture.resolved(b, txt: txt))) == [.disappeared(serviceName: "muster-b")])
    }

    @Test mutating func aPeerThatCannotBeResolvedDisappears() {
        let b = runningWithPeer()
        let actions = machine.resolveFailed(b, reason: "Timeout reached")
        #expect(Self.work(actions) == [.stopResolving(b)])
        #expect(Self.events(actions) == [.disappeared(serviceName: "muster-b")])
    }

    @Test mutating func aCollisionRenamesWithAvahisRuleAndPublishesAgain() {
        _ = machine.clientStateChanged(.running)
        let name = "muster-\(Fixture.ownFingerprint)"
        #expect(Self.work(machine.groupStateChanged(.collision)) == [.publish(serviceName: "\(name) #2")])
        #expect(Self.work(machine.publishCollided()) == [.publish(serviceName: "\(name) #3")])
        #expect(machine.serviceName == "\(name) #3")
        // The new name is kept when the daemon comes back.
        _ = machine.clientStateChanged(.failure("Daemon connection failed"))
        #expect(Self.work(machine.clientStateChanged(.running)).contains(.publish(serviceName: "\(name) #3")))
    }

    @Test mutating func aFailedRenameReconnectsInsteadOfPublishingTheSameName() {
        machine = DiscoveryMachine(
            serviceName: "muster-a",
            classifier: Fixture.classifier(),
            rename: { _ throws(DiscoveryError) in throw DiscoveryError(.avahiCall, "out of memory") }
        )
        _ = machine.clientStateChanged(.running)
        #expect(Self.work(machine.groupStateChanged(.collision)) == [.dropAvahiObjects, .reconnect])
    }

    @Test mutating func daemonLossKeepsPeersUntilTheBrowseSettlesAfterItReturns() {
        let b = runningWithPeer()
        let c = Fixture.instance("muster-c")
        _ = machine.serviceFound(c)
        _ = machine.resolved(Fixture.resolved(c, host: "10.77.0.3", fp: "cccc"))

        let lost = machine.clientStateChanged(.failure("Daemon connection failed"))
        #expect(Self.events(lost) == [.daemonUnavailable("Daemon connection failed")])
        #expect(Self.work(lost) == [.dropAvahiObjects, .reconnect])
        #expect(machine.knownPeers.count == 2)
        // The new client waits for the daemon: still unavailable, no second event.
        #expect(Self.events(machine.clientStateChanged(.connecting)).isEmpty)

        let back = machine.clientStateChanged(.running)
        #expect(Self.events(back) == [.daemonAvailable])
        #expect(Self.work(back) == [.resetBackoff, .publish(serviceName: "muster-\(Fixture.ownFingerprint)"), .browse])

        // b is announced again with the same data: nothing to tell. c is not.
        _ = machine.serviceFound(b)
        #expect(Self.events(machine.resolved(Fixture.resolved(b))).isEmpty)
        #expect(Self.events(machine.browseSettled()) == [.disappeared(serviceName: "muster-c")])
        #expect(Array(machine.knownPeers.keys) == ["muster-b"])
        #expect(Self.events(machine.browseSettled()).isEmpty)
    }

    @Test mutating func aStalePeerStillResolvingAtSettleIsKept() {
        let b = runningWithPeer()
        _ = machine.clientStateChanged(.failure("Daemon connection failed"))
        _ = machine.clientStateChanged(.running)
        _ = machine.serviceFound(b)
        #expect(Self.events(machine.browseSettled()).isEmpty)
        #expect(Self.events(machine.serviceRemoved(b)) == [.disappeared(serviceName: "muster-b")])
    }

    @Test mutating func aBrowserFailureStartsOverWithoutDroppingPeers() {
        _ = runningWithPeer()
        let actions = machine.browseFailed("Timeout reached")
        #expect(Self.work(actions) == [.dropAvahiObjects, .reconnect])
        #expect(Self.events(actions).isEmpty)
        #expect(machine.knownPeers.count == 1)
        #expect(Self.work(machine.clientStateChanged(.running)).contains(.browse))
    }

    @Test mutating func lateResolverAnswersForForgottenInstancesAreIgnored() {
        let b = runningWithPeer()
        _ = machine.serviceRemoved(b)
        #expect(machine.resolved(Fixture.resolved(b)).isEmpty)
        #expect(machine.resolveFailed(b, reason: "x").isEmpty)
    }
}
