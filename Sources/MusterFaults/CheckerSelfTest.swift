/// The checker run on synthetic histories and replicas before every campaign, so that a checker
/// that cannot see a loss (and would pass everything) fails the run instead.
enum CheckerSelfTest {
    struct Case {
        let name: String
        let operations: [Operation]
        let presence: [ReplicaSnapshot.PresenceKey: Int]
        let walkIns: Set<String>
        let lockVersion: UInt64?
        let lost: Int
        let phantom: Int
    }

    static func op(
        _ id: Int,
        _ kind: Operation.Kind,
        _ kiosk: Int,
        _ subject: String,
        _ outcome: Operation.Outcome,
        lock: UInt64? = nil
    ) -> Operation {
        Operation(
            id: id,
            scenario: "self-test",
            kind: kind,
            kiosk: kiosk,
            subject: subject,
            lockVersion: lock,
            startMillis: 0,
            endMillis: 0,
            outcome: outcome,
            detail: ""
        )
    }

    static func key(_ kind: Operation.Kind, _ kiosk: Int, _ email: String) -> ReplicaSnapshot.PresenceKey {
        ReplicaSnapshot.PresenceKey(kind: kind, kiosk: "k\(kiosk)", email: email)
    }

    static let cases: [Case] = [
        Case(
            name: "acknowledged check-in present",
            operations: [op(1, .checkIn, 1, "a@x", .ok)],
            presence: [key(.checkIn, 1, "a@x"): 1],
            walkIns: [],
            lockVersion: nil,
            lost: 0,
            phantom: 0
        ),
        Case(
            name: "acknowledged check-in missing is lost",
            operations: [op(1, .checkIn, 1, "a@x", .ok)],
            presence: [:],
            walkIns: [],
            lockVersion: nil,
            lost: 1,
            phantom: 0
        ),
        Case(
            name: "check-in on the wrong kiosk is lost and phantom",
            operations: [op(1, .checkIn, 1, "a@x", .ok)],
            presence: [key(.checkIn, 2, "a@x"): 1],
            walkIns: [],
            lockVersion: nil,
            lost: 1,
            phantom: 1
        ),
        Case(
            name: "refused operation that wrote is phantom",
            operations: [op(1, .checkOut, 3, "a@x", .refused)],
            presence: [key(.checkOut, 3, "a@x"): 1],
            walkIns: [],
            lockVersion: nil,
            lost: 0,
            phantom: 1
        ),
        Case(
            name: "unknown outcome may be present",
            operations: [op(1, .checkIn, 1, "a@x", .unknown)],
            presence: [key(.checkIn, 1, "a@x"): 1],
            walkIns: [],
            lockVersion: nil,
            lost: 0,
            phantom: 0
        ),
        Case(
            name: "unknown outcome may be absent",
            operations: [op(1, .checkIn, 1, "a@x", .unknown)],
            presence: [:],
            walkIns: [],
            lockVersion: nil,
            lost: 0,
            phantom: 0
        ),
        Case(
            name: "walk-in never registered is phantom",
            operations: [],
            presence: [key(.register, 2, "w@x"): 1],
            walkIns: ["w@x"],
            lockVersion: nil,
            lost: 0,
            phantom: 2
        ),
        Case(
            name: "acknowledged walk-in missing is lost",
            operations: [op(1, .register, 2, "w@x", .ok)],
            presence: [:],
            walkIns: [],
            lockVersion: nil,
            lost: 2,
            phantom: 0
        ),
        Case(
            name: "older lock than acknowledged is lost",
            operations: [op(1, .lock, 1, "v1", .ok, lock: 1), op(2, .lock, 1, "v2", .ok, lock: 2)],
            presence: [:],
            walkIns: [],
            lockVersion: 1,
            lost: 1,
            phantom: 0
        ),
        Case(
            name: "lock never submitted is phantom",
            operations: [op(1, .lock, 1, "v1", .ok, lock: 1)],
            presence: [:],
            walkIns: [],
            lockVersion: 3,
            lost: 0,
            phantom: 1
        ),
    ]

    /// The failed cases (empty when the checker sees what it must).
    static func run() -> [String] {
        cases.compactMap { test in
            let snapshot = ReplicaSnapshot(
                kiosk: 1,
                integrity: "ok",
                digest: "",
                heads: [:],
                presence: test.presence,
                walkIns: test.walkIns,
                lockVersion: test.lockVersion
            )
            let verdict = Checker(operations: test.operations).verdict(snapshot)
            guard verdict.lost != test.lost || verdict.phantom != test.phantom else { return nil }
            return
                "\(test.name): lost \(verdict.lost) (want \(test.lost)), phantom \(verdict.phantom) (want \(test.phantom))"
        }
    }
}
