import Testing

@testable import MusterDiscovery

@Suite("PeerClassifier")
struct PeerClassifierTests {
    let classifier = Fixture.classifier()
    let instance = Fixture.instance("muster-aaaa")

    @Test func aKioskOfThisVenueIsAPeer() {
        let verdict = classifier.classify(Fixture.resolved(instance, host: "10.77.0.2", port: 7421, fp: "AAAA-bbbb"))
        #expect(
            verdict
                == .peer(
                    DiscoveredPeer(
                        serviceName: "muster-aaaa",
                        host: "10.77.0.2",
                        port: 7421,
                        venueID: Fixture.venue,
                        fingerprint: "aaaa-bbbb",
                        protocolVersion: 1
                    )
                )
        )
    }

    @Test func ownFingerprintIsIgnoredWhateverItsCase() {
        #expect(classifier.classify(Fixture.resolved(instance, fp: Fixture.ownFingerprint)) == .own)
        #expect(classifier.classify(Fixture.resolved(instance, fp: Fixture.ownFingerprint.uppercased())) == .own)
    }

    @Test func otherVenuesAreIgnored() {
        let service = Fixture.resolved(instance, txt: Fixture.txt(venue: Fixture.otherVenue, fp: "aaaa"))
        #expect(classifier.classify(service) == .otherVenue(Fixture.otherVenue))
    }

    @Test func venueComparisonIgnoresCase() {
        let service = Fixture.resolved(instance, txt: Fixture.txt(venue: Fixture.venue.uppercased(), fp: "aaaa"))
        guard case .peer = classifier.classify(service) else {
            Issue.record("an upper-case venue id of this venue should still be a peer")
            return
        }
    }

    @Test func garbageIsMalformed() {
        let service = Fixture.resolved(instance, txt: [Array("hello".utf8)])
        #expect(classifier.classify(service) == .malformed(.missing(key: "v")))
    }
}
