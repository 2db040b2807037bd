import Foundation

// Thin entry point: everything else lives in `FuzzCommand`.
exit(FuzzCommand.run(arguments: Array(CommandLine.arguments.dropFirst())))
