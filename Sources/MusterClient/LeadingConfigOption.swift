/// `muster --config F status`: the config option given before the subcommand, as git and systemctl accept
/// their global options. Every subcommand that reads a kiosk takes `--config` itself; this only lifts one
/// written in front of the subcommand out of the way, so the argument parser sees the subcommand first.
public enum LeadingConfigOption {
    /// The path of a `--config F` or `--config=F` that comes before the first other argument, and the arguments
    /// without it. A `--config` with no value stays in place, for the parser to report.
    public static func split(_ arguments: [String]) -> (path: String?, rest: [String]) {
        guard let first = arguments.first else { return (nil, arguments) }
        if first == "--config", arguments.count >= 2 {
            return (arguments[1], Array(arguments.dropFirst(2)))
        }
        if first.hasPrefix("--config=") {
            return (String(first.dropFirst("--config=".count)), Array(arguments.dropFirst()))
        }
        return (nil, arguments)
    }
}
