import Foundation
import MusterControl
import MusterDaemon
import MusterRules
import MusterTestSupport
import MusterTime
import Testing

@testable import MusterClient

/// The screen's user may add a note to the attendee it has just checked in, and to no one else
/// (issue 32, item 16): the daemon keeps that binding itself, so a process that escaped the screen
/// and holds its socket cannot write into another attendee's record. Real uids, the real socket.
@Suite("A screen's note binds to its own check-in (live socket, real uids)", .enabled(if: geteuid() == 0))
struct ScreenNoteBindingLiveTests {
    typealias Policy = ControlPeerPolicyLiveTests

    static func note(_ key: String, _ text: String) -> ControlRequest {
        let request = ControlRequest.note(attendeeKey: key, text: text)
        return request
    }

    /// Each note in the replica, by attendee key.
    static func notes(_ daemon: LiveDaemon) throws -> [String: String] {
        var notes: [String: String] = [:]
        for entry in try daemon.replica.presenceLog(campaignID: nil) {
            if let key = entry.attendee?.key, let note = entry.note, !note.isEmpty { notes[key] = note }
        }
        return notes
    }

    @Test("a note for another checked-in attendee, or a second note, or a late one is refused and writes nothing")
    func noteOnlyForTheAttendeeJustCheckedIn() async throws {
        let clock = ManualClock()
        let daemon = try LiveDaemon()
        try await daemon.start(gate: Policy.gate(screenUID: Policy.nobody, clock: clock))
        try await daemon.importAndLock()
        try Policy.openToNobody(daemon)
        // Grace was checked in at the staff desk; then Ada checks in at the screen.
        #expect(try await daemon.send(Policy.request(.checkIn, query: "grace@example.com")).outcome == .checkedIn)
        let checkIn = try await Policy.asNobody(daemon, [Policy.request(.checkIn, query: "MUS-0001")])
        // The screen is told a handle for Ada, not her key (her email).
        let handle = try #require(checkIn.first?.attendee?.key)
        #expect(checkIn.map(\.outcome) == [.checkedIn])
        #expect(!handle.contains("@") && handle != "ada@example.com")
        let answers =
            checkIn
            + (try await Policy.asNobody(
                daemon,
                [
                    Self.note("grace@example.com", "hostile note on someone else"),
                    Self.note(handle, "Great talk on engines"),
                    Self.note(handle, "a second note"),
                ]
            ))
        #expect(answers.map(\.outcome) == [.checkedIn, .error, .noted, .error], "\(answers)")
        #expect(answers[1].errorCode == .forbidden && answers[3].errorCode == .forbidden)
        #expect(answers[1].message?.contains("Grace") != true && answers[1].attendee == nil)
        // Only the honest note arrived: nothing on Grace, Ada's first note only.
        #expect(try Self.notes(daemon) == ["ada@example.com": "Great talk on engines"])

        // A note long after the check-in (the next person at the screen) is refused too.
        let walkIn = ControlRequest.register(
            WalkInRegistration(firstName: "Wal", lastName: "Kin", email: "walkin@example.org")
        )
        let late = try await Policy.asNobody(daemon, [walkIn])
        #expect(late.map(\.outcome) == [.registered])
        clock.advance(by: .seconds(600))
        let tooLate = try await Policy.asNobody(daemon, [Self.note("walkin@example.org", "written by the next person")])
        #expect(tooLate.map(\.errorCode) == [.forbidden])
        #expect(try Self.notes(daemon) == ["ada@example.com": "Great talk on engines"])
    }
}
