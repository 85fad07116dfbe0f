import Foundation
import SteppieTestSupport
import SteppieFeedback

/// Records a sink monitor of `server` with parec into a raw 16-bit mono file.
final class SinkRecorder {
    let path = NSTemporaryDirectory() + "steppie-rec-\(UUID().uuidString).raw"
    private let process: SpawnedProcess

    init(server: String) throws {
        process = try SpawnedProcess("/usr/bin/parec", ["--latency-msec=10", "--format=s16le", "--rate=22050", "--channels=1",
                                                        "-d", "steppie_test.monitor", "-s", server],
                                     environment: StressHarness.environment([:]), stdoutPath: path)
        guard waitUntil(timeout: 5, { bytes > 4410 }) else { throw FeedbackError.pulse(call: "parec", reason: "no data") }
    }

    var bytes: Int { ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0 }

    /// Stops parec (by its PID) and returns the samples.
    func stop() -> [Float] {
        process.stop(SIGTERM)
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return data.withUnsafeBytes { raw in raw.bindMemory(to: Int16.self).map { Float($0) / 32768 } }
    }
}

/// A copy of the data directory (catalogs linked, sounds copied) that a test may damage.
func damagedDataDirectory(in dir: URL, _ damage: (URL) throws -> Void) throws -> URL {
    let data = dir.appendingPathComponent("data")
    let fm = FileManager.default
    try fm.createDirectory(at: data, withIntermediateDirectories: true)
    for linked in ["Localization", "Pronunciation"] where fm.fileExists(atPath: Repo.root.appendingPathComponent(linked).path) {
        try fm.createSymbolicLink(at: data.appendingPathComponent(linked), withDestinationURL: Repo.root.appendingPathComponent(linked))
    }
    try fm.copyItem(at: Repo.root.appendingPathComponent("Sounds"), to: data.appendingPathComponent("Sounds"))
    try damage(data.appendingPathComponent("Sounds"))
    return data
}

/// espeak-ng's data with one language's voice and dictionary left out (links to the real files).
func espeakDataWithout(language: String, family: String, in dir: URL) throws -> URL {
    let source = ["/usr/lib/x86_64-linux-gnu/espeak-ng-data", "/usr/lib/aarch64-linux-gnu/espeak-ng-data", "/usr/share/espeak-ng-data"]
        .first { FileManager.default.fileExists(atPath: $0 + "/phontab") } ?? "/usr/lib/x86_64-linux-gnu/espeak-ng-data"
    let fm = FileManager.default
    let target = dir.appendingPathComponent("espeak-ng-data")
    try fm.createDirectory(at: target.appendingPathComponent("lang"), withIntermediateDirectories: true)
    for name in try fm.contentsOfDirectory(atPath: source) where name != "\(language)_dict" && name != "lang" {
        try fm.createSymbolicLink(atPath: target.appendingPathComponent(name).path, withDestinationPath: "\(source)/\(name)")
    }
    for name in try fm.contentsOfDirectory(atPath: source + "/lang") where name != family {
        try fm.createSymbolicLink(atPath: target.appendingPathComponent("lang/\(name)").path, withDestinationPath: "\(source)/lang/\(name)")
    }
    return target
}

/// The peak absolute sample value.
func peak(_ samples: [Float]) -> Float { samples.reduce(0) { max($0, abs($1)) } }
