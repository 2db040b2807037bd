import Foundation
import MusterControl
import MusterCore

extension ControlTarget {
    /// A request of every operation as `muster` encodes it, a whole session, and the ways a line goes wrong.
    func seeds() throws -> [Seed] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func line(_ request: ControlRequest) throws -> [UInt8] { Array(try encoder.encode(request)) + [0x0A] }

        let register = WalkInRegistration(
            firstName: "Walk",
            lastName: "In",
            email: "walk.in@example.org",
            company: "Ñandú GmbH"
        )
        let deltas = try Samples.signedDeltas().prefix(3).map {
            WireDelta(envelope: Self.hex($0.envelope), signature: Self.hex($0.signature))
        }
        guard let author = AuthorID(hex: String(repeating: "ab", count: 32)) else {
            throw PropertyFailure("seed", "the sample author is not hex")
        }
        let requests: [(String, ControlRequest)] = [
            ("checkin", .checkIn(query: "ana@example.com")), ("checkout", .checkOut(query: "T-1001")),
            ("register", .register(register)),
            ("note", .note(attendeeKey: "ana@example.com", text: "Great keynote! 🎉")),
            ("head", .head(author: author)), ("submit", .submit(OrganizerSubmission(deltas: deltas))),
            ("status", .status), ("ping", .ping),
        ]
        var seeds = try requests.map { Seed("\($0.0).jsonl", try line($0.1)) }
        seeds.append(Seed("session.jsonl", try requests.flatMap { try line($0.1) }))
        seeds.append(Seed("no-final-newline.jsonl", text: "{\"op\":\"ping\"}\n{\"op\":\"status\"}"))
        seeds.append(Seed("crlf.jsonl", text: "{\"op\":\"ping\"}\r\n"))
        seeds.append(Seed("malformed.jsonl", text: "{\"op\":\"launch\"}\n{\"op\":\n[]\nnull\n\n"))
        seeds.append(
            Seed("escapes.jsonl", text: "{\"op\":\"checkin\",\"query\":\"\\u0000\\ud83c\\udf89\\\"\",\"text\":null}\n")
        )
        seeds.append(
            Seed(
                "over-long.jsonl",
                text: "{\"op\":\"note\",\"text\":\""
                    + String(repeating: "a", count: Self.maxLineBytes) + "\"}\n{\"op\":\"ping\"}\n"
            )
        )
        return seeds
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
