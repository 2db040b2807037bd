import MusterCore
import Testing

@testable import MusterRules

/// When a kiosk works alone (issue 37): no other kiosk heard for 10 s, or none of its own zone.
@Suite("Solitude")
struct SolitudeTests {
    static let start: UInt64 = 1_000_000
    static let bound = Solitude.boundMillis

    static func judge(now: UInt64, _ peers: [Solitude.Peer], own: String = "Hall B") -> Solitude? {
        Solitude.judge(nowMillis: now, startedMillis: start, ownLocation: own, peers: peers)
    }

    @Test func aVenueOfOneKioskIsNeverAlone() {
        #expect(Self.judge(now: Self.start + 10 * Self.bound, []) == nil)
    }

    @Test func nobodyHeardSinceTheStartIsAloneSinceTheStartOnceTheBoundHasPassed() {
        let peers = [Solitude.Peer(location: "Foyer", heardMillis: nil)]
        #expect(Self.judge(now: Self.start + Self.bound, peers) == nil, "exactly the bound: not yet")
        #expect(
            Self.judge(now: Self.start + Self.bound + 1, peers)
                == Solitude(sinceMillis: Self.start, unheardZone: nil)
        )
    }

    @Test func theLastWordOfAnyKioskIsWhenSolitudeBegan() {
        let heard = Self.start + 5_000
        let peers = [
            Solitude.Peer(location: "Hall B", heardMillis: heard - 3_000),
            Solitude.Peer(location: "Foyer", heardMillis: heard),
        ]
        #expect(Self.judge(now: heard + Self.bound, peers, own: "Gallery") == nil)
        #expect(
            Self.judge(now: heard + Self.bound + 1, peers, own: "Gallery")
                == Solitude(sinceMillis: heard, unheardZone: nil)
        )
    }

    @Test func othersHeardButNotTheOwnZoneNamesTheZone() {
        let now = Self.start + 60_000
        let peers = [
            Solitude.Peer(location: "Hall B", heardMillis: now - Self.bound - 500),
            Solitude.Peer(location: "Hall B", heardMillis: nil),
            Solitude.Peer(location: "Foyer", heardMillis: now - 100),
        ]
        #expect(Self.judge(now: now, peers) == Solitude(sinceMillis: now - Self.bound - 500, unheardZone: "Hall B"))
        // One kiosk of the zone heard lately is enough.
        var heard = peers
        heard[1] = Solitude.Peer(location: "Hall B", heardMillis: now - 2_000)
        #expect(Self.judge(now: now, heard) == nil)
        // A zone with no other kiosk, or a kiosk with no location, has no zone to miss.
        #expect(Self.judge(now: now, peers, own: "Gallery") == nil)
        #expect(Self.judge(now: now, peers, own: "") == nil)
    }

    @Test func aClockThatWentBackIsNotSolitude() {
        let peers = [Solitude.Peer(location: "Foyer", heardMillis: Self.start + 50_000)]
        #expect(Self.judge(now: Self.start + 40_000, peers) == nil)
    }

    @Test func onlyKiosksThatAreNotRevokedCount() {
        let keys = (UInt8(1)...4).map { AuthorID(bytes: [UInt8](repeating: $0, count: 32))! }
        let roster = [
            RosterEntry(kiosk: keys[0], name: "me", location: "Hall B", revokedWatermark: nil),
            RosterEntry(kiosk: keys[1], name: "k2", location: "Hall B", revokedWatermark: nil),
            RosterEntry(kiosk: keys[2], name: "gone", location: "Hall B", revokedWatermark: 7),
            RosterEntry(kiosk: keys[3], name: "laptop", location: "", revokedWatermark: nil, role: .organizerDevice),
        ]
        let peers = Solitude.peers(roster: roster, me: keys[0], heard: [keys[1]: 42])
        #expect(peers == [Solitude.Peer(location: "Hall B", heardMillis: 42)])
    }

    @Test func theLineSaysSinceWhenAndWhatIsUnheard() {
        #expect(
            Solitude(sinceMillis: 0, unheardZone: "Hall B").line(time: "10:42")
                == "working alone since 10:42 — Hall B unheard"
        )
        #expect(
            Solitude(sinceMillis: 0, unheardZone: nil).line(time: "10:42")
                == "working alone since 10:42 — no other kiosk heard"
        )
    }
}
