import Foundation
import SteppieBenchSupport
import SteppieBackup
import SteppieCore
import SteppieStore

// `steppie-bench-backup`: builds the 10-year database with 60 photos, then measures backup and
// restore (each in a child process, under /usr/bin/time) against shell baselines on the same data.
// On its own: cd Benchmarks && swift build -c release --static-swift-stdlib --product steppie-bench-backup && .build/release/steppie-bench-backup
let zone = TimeZone(identifier: "Asia/Seoul") ?? .current
let arguments = Array(CommandLine.arguments.dropFirst())

/// Peak resident memory of this process (VmHWM), in MiB.
func peakMiB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return .nan }
    return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? .nan) / 1024
}

do {
    switch arguments.first {
    case "child-backup":
        let store = try Store(path: arguments[1], timeZone: zone)
        let report = try BackupCreator(appVersion: "bench", timeZone: zone)
            .create(store: store, assetsDirectory: URL(fileURLWithPath: arguments[2]), destination: URL(fileURLWithPath: arguments[3]), at: Date())
        print("rows \(report.counts.dailyLogs) bytes \(report.bytes) vmhwm \(peakMiB())")
    case "child-restore":
        let store = try Store(path: arguments[2], timeZone: zone)
        let report = try Restorer(options: RestoreOptions(defaultChildName: "Child"))
            .restore(archive: URL(fileURLWithPath: arguments[1]), into: store, assetsDirectory: URL(fileURLWithPath: arguments[3]),
                     at: Date(), confirm: { _ in true })
        print("rows \(report.plan.counts.dailyLogs) vmhwm \(peakMiB())")
    case "fixture":
        // Builds the fixture database, photos and archive into a kept directory, to time
        // `child-restore` on it repeatedly without rebuilding: `fixture <dir>`.
        let dir = URL(fileURLWithPath: arguments[1])
        let assets = dir.appendingPathComponent("src/assets")
        let db = dir.appendingPathComponent("src/steppie.db").path
        try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
        _ = try TenYearFixture.build(path: db, zone: zone, assets: assets, photos: 60)
        let store = try Store(path: db, timeZone: zone)
        let report = try BackupCreator(appVersion: "bench", timeZone: zone)
            .create(store: store, assetsDirectory: assets, destination: dir.appendingPathComponent("steppie-backup.zip"), at: Date())
        print("rows \(report.counts.dailyLogs) bytes \(report.bytes) archive \(dir.path)/steppie-backup.zip")
    default:
        try Bench.run()
    }
} catch {
    FileHandle.standardError.write(Data("steppie-bench-backup: \(error)\n".utf8))
    exit(1)
}
