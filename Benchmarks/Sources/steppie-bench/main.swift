import Foundation

// `steppie-bench [commands] [startup] [scale]`: runs the project's benchmarks and prints their tables.
let which = Set(CommandLine.arguments.dropFirst())
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-bench-\(ProcessInfo.processInfo.processIdentifier)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
do {
    if which.isEmpty || which.contains("commands") { try CommandBench.run(directory: directory) }
    if which.isEmpty || which.contains("startup") { try StartupBench.run(directory: directory) }
    if which.isEmpty || which.contains("scale") { try ScaleBench.run(directory: directory) }
    print(String(format: "\npeak RSS of the benchmark process (includes building the fixture): %.1f MiB", peakRSSMiB()))
} catch {
    FileHandle.standardError.write(Data("steppie-bench: \(error)\n".utf8))
    exit(1)
}
