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

        /// A history, what the replica holds, and the losses and phantoms the checker must count.
        init(
            _ name: String,
            _ operations: [Operation],
            presence: [ReplicaSnapshot.PresenceKey: Int] = [:],
            walkIns: Set<String> = [],
            lockVersion: UInt64? = nil,
            lost: Int = 0,
            phantom: Int = 0
        ) {
            self.name = name
            self.operations = operations
            self.presence = presence
            self.walkIns = walkIns
            self.lockVersion = lockVersion
            self.lost = lost
            self.phantom = phantom
        }
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
        Case("acknowledged check-in present", [op(1, .checkIn, 1, "a@x", .ok)], presence: [key(.checkIn, 1, "a@x"): 1]),
        Case("acknowledged check-in missing is lost", [op(1, .checkIn, 1, "a@x", .ok)], lost: 1),
        Case(
            "check-in on the wrong kiosk is lost and phantom",
            [op(1, .checkIn, 1, "a@x", .ok)],
            presence: [key(.checkIn, 2, "a@x"): 1],
            lost: 1,
            phantom: 1
        ),
        Case(
            "refused operation that wrote is phantom",
            [op(1, .checkOut, 3, "a@x", .refused)],
            presence: [key(.checkOut, 3, "a@x"): 1],
            phantom: 1
        ),
        Case(
            "unknown outcome may be present",
            [op(1, .checkIn, 1, "a@x", .unknown)],
            presence: [key(.checkIn, 1, "a@x"): 1]
        ),
        Case("unknown outcome may be absent", [op(1, .checkIn, 1, "a@x", .unknown)]),
        Case(
            "walk-in never registered is phantom",
            [],
            presence: [key(.register, 2, "w@x"): 1],
            walkIns: ["w@x"],
            phantom: 2
        ),
        Case("acknowledged walk-in missing is lost", [op(1, .register, 2, "w@x", .ok)], lost: 2),
        Case(
            "older lock than acknowledged is lost",
            [op(1, .lock, 1, "v1", .ok, lock: 1), op(2, .lock, 1, "v2", .ok, lock: 2)],
            lockVersion: 1,
            lost: 1
        ),
        Case("lock never submitted is phantom", [op(1, .lock, 1, "v1", .ok, lock: 1)], lockVersion: 3, phantom: 1),
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
