public import MusterAttendeeList
public import MusterCore
import MusterRules

/// Turns a parsed attendee file into the organizer's deltas: the campaign (when new) and one
/// attendee delta per person.
public enum ImportPlan {
    public static func bodies(for list: AttendeeListImport, campaignID: String, newCampaignName: String?) -> [DeltaBody]
    {
        var bodies: [DeltaBody] = []
        bodies.reserveCapacity(list.rows.count + 1)
        if let newCampaignName {
            bodies.append(.campaign(CampaignPayload(campaignID: campaignID, name: newCampaignName)))
        }
        for row in list.rows {
            bodies.append(
                .attendee(
                    AttendeePayload(
                        campaignID: campaignID,
                        key: row.emailKey,
                        email: row.email,
                        firstName: row.firstName,
                        lastName: row.lastName,
                        company: row.company,
                        ticket: row.ticket,
                        salesforceID: row.salesforceID,
                        status: row.status,
                        admitted: row.admitted,
                        details: row.details
                    )
                )
            )
        }
        return bodies
    }

    /// ``bodies(for:campaignID:newCampaignName:)``, each one encoded and decoded again before any is submitted, so
    /// that a row no replica would accept stops the import at its line with nothing sent, instead of failing the
    /// daemon's check after part of the file was applied.
    ///
    /// The attendee list's own limits (1,000 bytes a field, 254 an email) keep every row far inside the delta
    /// limits; this check is what makes that promise hold even if one side's limits change.
    public static func checkedBodies(
        for list: AttendeeListImport,
        campaignID: String,
        newCampaignName: String?
    ) throws(ClientError) -> [DeltaBody] {
        let bodies = bodies(for: list, campaignID: campaignID, newCampaignName: newCampaignName)
        let firstRow = bodies.count - list.rows.count
        for (index, body) in bodies.enumerated() {
            let line = index >= firstRow ? list.rows[index - firstRow].line : nil
            try check(body, line: line)
        }
        return bodies
    }

    /// Refuses a body that is over the size limit or does not decode back to itself (a field over the decoder's
    /// limit), naming the file's line when it came from one.
    static func check(_ body: DeltaBody, line: Int?) throws(ClientError) {
        let bytes = body.encode()
        let problem: String?
        if bytes.count > Limits.maxBodyBytes {
            problem = "its record is \(bytes.count) bytes; a delta holds at most \(Limits.maxBodyBytes)"
        } else {
            do {
                problem =
                    try DeltaBody.decode(kind: body.kind, bytes: bytes) == body ? nil : "it does not encode exactly"
            } catch {
                // The decoder's words may quote the value: made safe here, so the sentence after it survives.
                problem = TerminalText.sanitize(error.description, maxCharacters: 500)
            }
        }
        guard let problem else { return }
        let place = line.map { "line \($0): " } ?? ""
        throw ClientError(.failed, "\(place)this \(body.kind) cannot be imported (\(problem)); nothing was imported")
    }

    /// A fresh campaign id: 16 random hex digits.
    public static func newCampaignID() -> String {
        var generator = SystemRandomNumberGenerator()
        return Hex.encode((0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
