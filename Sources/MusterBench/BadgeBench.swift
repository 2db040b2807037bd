import Foundation
import MusterBadge
import MusterBadgePrinting
import MusterTime

/// Badge render + submit latency (issue 15): what a kiosk adds after the check-in was already
/// acknowledged, until CUPS holds the job.
///
/// Renders `count` PDF badges (names in Latin with accents, Chinese and Arabic, one long name that
/// wraps) and, when `MUSTER_BENCH_CUPS_QUEUE` names a queue (on `MUSTER_BENCH_CUPS_SERVER`, else
/// the local cupsd), submits each one to it. The limit beside it is cairo's own floor on this
/// machine: an empty page of the same size, rendered and finished the same way.
enum BadgeBench {
    struct Result {
        var renderSubmit = LatencySample()
        var blankPage = LatencySample()
        var submitted: Bool
    }

    static let contents: [BadgeContent] = [
        BadgeContent(
            eventName: "DevConf 2026",
            firstName: "Łucja",
            lastName: "Żółkiewska",
            company: "Źródło",
            code: "MUS-0001"
        ),
        BadgeContent(eventName: "DevConf 2026", firstName: "小明", lastName: "王", company: "北京科技", code: "MUS-0002"),
        BadgeContent(
            eventName: "DevConf 2026",
            firstName: "مريم",
            lastName: "الحسيني",
            company: "Acme",
            code: "MUS-0003"
        ),
        BadgeContent(
            eventName: "DevConf 2026",
            firstName: "Maria Magdalena Konstancja",
            lastName: "Wierzbicka-Przybyszewska",
            company: "Analytical Engines Ltd",
            code: "MUS-0004"
        ),
    ]

    static func run(count: Int) throws -> Result {
        let renderer = BadgeRenderer(layout: .standard)
        let blank = BadgeRenderer(layout: BadgeLayout(size: .label62x100, fields: [.event]))
        let environment = ProcessInfo.processInfo.environment
        let printer = try environment["MUSTER_BENCH_CUPS_QUEUE"].map {
            BadgePrinter(
                queue: try CupsQueue(name: $0, server: environment["MUSTER_BENCH_CUPS_SERVER"]),
                time: SystemTime()
            )
        }
        var result = Result(submitted: printer != nil)
        let empty = BadgeContent(eventName: "", firstName: "", lastName: "", company: "", code: "")
        // Warm-up: the first render on a thread loads fontconfig's cache and the fonts.
        for content in contents { _ = try renderer.render(content, as: .pdf) }
        for index in 0..<count {
            let content = contents[index % contents.count]
            try result.renderSubmit.measure {
                let rendering = try renderer.render(content, as: .pdf)
                if let printer { _ = try printer.submit(rendering.bytes, title: "bench \(index)") }
            }
            try result.blankPage.measure { _ = try blank.render(empty, as: .pdf) }
        }
        return result
    }
}
