import Foundation

/// `muster status --json` on lab kiosk `kiosk`, run through the lab's `exec`: what every lab
/// (`scripts/lab`, whatever its prefix) reads its kiosks' state with.
func labStatus(of kiosk: Int, exec: (Int, [String]) throws -> KioskHarness.Result) throws -> [String: Any] {
    let result = try exec(kiosk, ["muster", "status", "--json"])
    guard result.status == 0,
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    else { throw KioskHarness.HarnessError(description: "status on k\(kiosk) failed: \(result.stderr)") }
    return object
}
