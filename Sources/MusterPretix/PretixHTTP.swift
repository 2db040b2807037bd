import Foundation
import FoundationNetworking
import Synchronization

/// One HTTP exchange with pretix, waited for: `muster` is a command that runs to its end, and the
/// organizer waits for the import or the push anyway. URLSession (libcurl) speaks HTTPS to a real
/// pretix and HTTP to one on loopback; no other process and no NIO.
struct PretixHTTP: Sendable {
    let target: PretixTarget
    /// How long one request may take before it counts as unanswered.
    var timeout: TimeInterval = 60

    /// `GET` or `POST` (with a JSON `body`) of `url`: the status and the body.
    func send(_ url: URL, body: Data? = nil) throws(PretixError) -> (status: Int, data: Data) {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = body == nil ? "GET" : "POST"
        request.setValue("Token \(target.token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let outcome = Mutex<Result<(Int, Data), PretixError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let path = url.path
        let task = URLSession.shared.dataTask(with: request) { data, response, error in
            let result: Result<(Int, Data), PretixError>
            if let error {
                result = .failure(.unreachable(path, error.localizedDescription))
            } else if let response = response as? HTTPURLResponse {
                result = .success((response.statusCode, data ?? Data()))
            } else {
                result = .failure(.unreadable(path, "no HTTP answer"))
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        task.resume()
        done.wait()
        guard let result = outcome.withLock({ $0 }) else { throw .unreadable(path, "no answer") }
        return try result.get()
    }

    /// Every record of a paged list (`results`, following `next` while pretix names one).
    func pages<Record: Decodable & Sendable>(_ url: URL, of: Record.Type) throws(PretixError) -> [Record] {
        var records: [Record] = []
        var next: URL? = url
        var seen: Set<URL> = []
        while let page = next, seen.insert(page).inserted {
            let (status, data) = try send(page)
            guard status == 200 else { throw .refused(status, page.path, Self.words(data)) }
            do {
                let decoded = try JSONDecoder().decode(PageOf<Record>.self, from: data)
                records += decoded.results
                next = decoded.next.flatMap(URL.init(string:))
            } catch {
                throw .unreadable(page.path, "\(error)")
            }
        }
        return records
    }

    private struct PageOf<Record: Decodable & Sendable>: Decodable {
        let next: String?
        let results: [Record]
    }

    /// pretix's own words in an error body (`detail`, `reason`), else the body itself, cut.
    static func words(_ data: Data) -> String {
        if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            let said = ["detail", "reason", "reason_explanation"].compactMap { object[$0] as? String }
            if !said.isEmpty { return said.joined(separator: ": ") }
        }
        return String(decoding: data.prefix(300), as: UTF8.self)
    }
}
