// swift-tools-version:6.1
import PackageDescription

/// Muster: offline check-in kiosks that share one signed, replicated attendee list.
///
/// Every arrow points down: the table in `scripts/check-layering` is the layering (`scripts/check-layering
/// --table` prints it; README.md shows that output, checked). `make test` checks every import and every
/// dependency below against it.
///
/// `MusterTime` (the one clock, backoff) sits below every library that waits or reads the time, and
/// `MusterProcess` (the one process runner) below the tools and the test kit. The front end and
/// everything under it link no SwiftNIO, service-lifecycle, Avahi or libcups (`scripts/check-links`
/// checks the built `muster` for libavahi-client and NIOPosix).
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "Muster",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "musterd", targets: ["musterd"]),
        .executable(name: "muster", targets: ["muster"]),
        .executable(name: "muster-sim", targets: ["muster-sim"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CAvahi", pkgConfig: "avahi-client", providers: [.apt(["libavahi-client-dev"])]),
        .target(name: "CMusterSQLite", linkerSettings: [.linkedLibrary("sqlite3")]),
        // Badges (issue 15): QR codes, cairo + pango rendering, printing through CUPS.
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(
            name: "CPangoCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]
        ),
        // Debian's libcups2-dev ships no cups.pc; the module map links -lcups.
        .systemLibrary(name: "CCups", providers: [.apt(["libcups2-dev"])]),
        // The one injected clock: "now" and every sleep (real or virtual).
        .target(name: "MusterTime", swiftSettings: strict),
        // The one process runner of the tools and the tests (Foundation's Process behind one small API).
        .target(name: "MusterProcess", swiftSettings: strict),
        .target(name: "MusterCore", swiftSettings: strict),
        // QR codes (libqrencode) for the terminal, the kiosk screen and the badge.
        .target(name: "MusterQR", dependencies: ["CQRencode"], swiftSettings: strict),
        // The name badge: layout, cairo + pango rendering (PDF, PNG, ZPL). No CUPS: the `muster` front end
        // previews badges with it, and libcups (built with Avahi on Debian) would bring libavahi-client along.
        .target(
            name: "MusterBadge",
            dependencies: [
                "CPangoCairo", "MusterQR",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Printing a rendered badge through libcups: the daemon's (and the benchmark's) side only.
        .target(
            name: "MusterBadgePrinting",
            dependencies: ["CCups", "MusterBadge", "MusterTime"],
            swiftSettings: strict
        ),
        .target(name: "MusterCrypto", dependencies: ["CSodium", "MusterCore"], swiftSettings: strict),
        // The attendee-list import (CSV and the exports it reads): no SQLite, no I/O beyond reading the file.
        .target(name: "MusterAttendeeList", dependencies: ["MusterCore"], swiftSettings: strict),
        // The venue's rules, pure: the policy, the judgement of a run of deltas, the door, the records and
        // summaries the stores and the front ends share. No SQLite: the sync core, the control protocol and
        // the simulator's memory store use them without the replica.
        .target(
            name: "MusterRules",
            dependencies: ["MusterCore", "MusterCrypto", "MusterTime"],
            swiftSettings: strict
        ),
        .target(
            name: "MusterStore",
            dependencies: [
                "MusterCore", "MusterCrypto", "MusterRules", "MusterTime", "CMusterSQLite",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            // Crash points (issue 7) exist only in debug builds, which are the test builds.
            swiftSettings: strict + [.define("MUSTER_FAULTS", .when(configuration: .debug))]
        ),
        .target(
            name: "MusterControl",
            dependencies: [
                "MusterCore", "MusterCrypto", "MusterRules", "MusterTime",
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "MusterDiscovery",
            dependencies: ["CAvahi", "MusterCore", "MusterTime", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(
            name: "MusterSync",
            dependencies: [
                "MusterCore", "MusterCrypto", "MusterStore", "MusterRules", "MusterTime",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "MusterDaemon",
            dependencies: [
                "MusterCore", "MusterCrypto", "MusterStore", "MusterRules", "MusterControl", "MusterSync",
                "MusterDiscovery",
                "MusterTime", "MusterBadge", "MusterBadgePrinting",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "MusterClient",
            dependencies: [
                "MusterCore", "MusterCrypto", "MusterStore", "MusterRules", "MusterAttendeeList", "MusterControl",
                "MusterTime",
                "MusterQR", "MusterBadge",
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "musterd",
            dependencies: [
                "MusterDaemon",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The pretix REST API (issue 35): URLSession (FoundationNetworking, libcurl), linked by `muster` only.
        .target(
            name: "MusterPretix",
            dependencies: ["MusterAttendeeList", "MusterCore", "MusterRules"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "muster",
            dependencies: [
                "MusterClient", "MusterControl", "MusterStore", "MusterRules", "MusterCore", "MusterCrypto",
                "MusterPretix", "MusterAttendeeList",
                "MusterBadge",
                "MusterTime",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "muster-fuzz",
            dependencies: [
                "MusterCore", "MusterCrypto", "MusterStore", "MusterRules", "MusterAttendeeList", "MusterControl",
                "MusterSync",
                "MusterDaemon", "MusterTime",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            path: "Sources/MusterFuzz",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "muster-bench",
            dependencies: [
                "MusterCore", "MusterCrypto", "MusterStore", "MusterRules", "MusterControl", "MusterClient",
                "MusterTime",
                "MusterBadge", "MusterBadgePrinting", "MusterProcess",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Sources/MusterBench",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "muster-faults",
            dependencies: [
                "MusterCore", "MusterCrypto", "MusterStore", "MusterRules", "MusterControl", "MusterClient",
                "MusterTime",
                "MusterProcess",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/MusterFaults",
            swiftSettings: strict
        ),
        // The deterministic simulator: N kiosks through the sync core on a simulated network, in virtual time.
        .target(
            name: "MusterSim",
            dependencies: ["MusterCore", "MusterCrypto", "MusterStore", "MusterRules", "MusterSync"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "muster-sim",
            dependencies: ["MusterSim", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Sources/muster-sim",
            swiftSettings: strict
        ),
        // The one test kit: temporary directories, permission checks, venue, attendee and delta builders,
        // the raw socket, the manual clock, graceful shutdown, process runners. Every test target uses it.
        .target(
            name: "MusterTestSupport",
            dependencies: [
                "MusterCore", "MusterCrypto", "MusterStore", "MusterRules", "MusterControl", "MusterTime",
                "MusterProcess",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ],
            path: "Tests/MusterTestSupport"
        ),
        .testTarget(name: "MusterTimeTests", dependencies: ["MusterTime", "MusterTestSupport"]),
        .testTarget(name: "MusterCoreTests", dependencies: ["MusterCore", "MusterTestSupport"]),
        .testTarget(name: "MusterQRTests", dependencies: ["MusterQR", "MusterTestSupport"]),
        .testTarget(
            name: "MusterBadgeTests",
            dependencies: ["MusterBadge", "MusterQR", "MusterTime", "MusterTestSupport"]
        ),
        .testTarget(name: "MusterCryptoTests", dependencies: ["MusterCrypto", "MusterTestSupport"]),
        .testTarget(
            name: "MusterPretixTests",
            dependencies: ["MusterPretix", "MusterCore", "MusterRules"]
        ),
        .testTarget(
            name: "MusterAttendeeListTests",
            dependencies: ["MusterAttendeeList", "MusterCore", "MusterTestSupport"]
        ),
        .testTarget(
            name: "MusterRulesTests",
            dependencies: ["MusterRules", "MusterCore", "MusterCrypto", "MusterTime", "MusterTestSupport"]
        ),
        .testTarget(
            name: "MusterStoreTests",
            dependencies: [
                "MusterStore", "MusterRules", "MusterCore", "MusterCrypto", "MusterTime", "MusterTestSupport",
            ]
        ),
        .testTarget(
            name: "MusterControlTests",
            dependencies: [
                "MusterControl", "MusterStore", "MusterRules", "MusterCore", "MusterCrypto", "MusterTestSupport",
            ]
        ),
        .testTarget(name: "MusterDiscoveryTests", dependencies: ["MusterDiscovery", "MusterTestSupport"]),
        .testTarget(
            name: "MusterSyncTests",
            dependencies: [
                "MusterSync", "MusterStore", "MusterRules", "MusterCore", "MusterCrypto", "MusterTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOTestUtils", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "MusterDaemonTests",
            dependencies: [
                "MusterDaemon", "MusterControl", "MusterStore", "MusterRules", "MusterCore", "MusterCrypto",
                "MusterTime",
                "MusterTestSupport", "MusterBadge", "MusterBadgePrinting", "MusterSync",
                .product(name: "NIOTestUtils", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "MusterClientTests",
            dependencies: [
                "MusterClient", "MusterControl", "MusterDaemon", "MusterStore", "MusterRules", "MusterAttendeeList",
                "MusterCore",
                "MusterTime",
                "MusterTestSupport",
            ]
        ),
        .testTarget(
            name: "MusterSimTests",
            dependencies: ["MusterSim", "MusterStore", "MusterRules", "MusterCore", "MusterSync", "MusterTestSupport"]
        ),
        .testTarget(
            name: "MusterIntegrationTests",
            dependencies: [
                "MusterCore", "MusterCrypto", "MusterStore", "MusterRules", "MusterAttendeeList", "MusterSync",
                "MusterTestSupport",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
