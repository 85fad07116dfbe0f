import SteppieBenchSupport
import Foundation

/// Runs the measurements and prints the table.
enum Bench {
    struct Measured {
        var seconds: Double
        var peakMiB: Double
        var output: String
    }

    static func run() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("steppie-bench-backup-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("src/steppie.db").path
        let assets = dir.appendingPathComponent("src/assets")
        let start = ContinuousClock.now
        let rows = try TenYearFixture.build(path: db, zone: zone, assets: assets, photos: 60).rows
        print("fixture: \(rows) daily logs, 60 photos of 1 MiB, built in \(ContinuousClock.now - start); db \(mib(db)) MiB")

        let me = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let archive = dir.appendingPathComponent("steppie-backup.zip").path
        let backup = try measure([me, "child-backup", db, assets.path, archive])
        let restore = try measure([me, "child-restore", archive, dir.appendingPathComponent("dst/steppie.db").path,
                                   dir.appendingPathComponent("dst/assets").path])
        print("ours: backup → \(backup.output); restore → \(restore.output); archive \(mib(archive)) MiB")

        // Baselines on the same data: a text dump of the database zipped with the photo folder, and back.
        let base = dir.appendingPathComponent("base").path
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        let baseBackup = try measure(["sh", "-c", "sqlite3 '\(db)' .dump > '\(base)/dump.sql' && cd '\(dir.path)/src' && zip -qr '\(base)/base.zip' assets && cd '\(base)' && zip -q base.zip dump.sql && rm dump.sql"])
        let baseRestore = try measure(["sh", "-c", "cd '\(base)' && unzip -qo base.zip -d out && sqlite3 out/new.db < out/dump.sql"])
        let copy = try measure(["sh", "-c", "cp '\(db)' '\(base)/copy.db' && cp -r '\(assets.path)' '\(base)/copy-assets'"])

        print("\n## Backup and restore of the 10-year database (\(rows) logs, 60 × 1 MiB photos)\n")
        print("| operation | wall time | peak RSS | baseline (same run) | baseline time | baseline peak RSS | time ratio |")
        print("|---|---|---|---|---|---|---|")
        row("backup create", backup, "sqlite3 .dump + zip -r", baseBackup)
        row("backup restore (validate + replace)", restore, "unzip + sqlite3 < dump", baseRestore)
        row("backup create", backup, "cp of db file + photo folder", copy)
        BenchRow.publish([
            BenchRow(area: "backup", figure: "backup create, 1.1 M logs + 60 MiB photos (peak \(Int(backup.peakMiB)) MiB)",
                     median: String(format: "%.1f s", backup.seconds), baseline: "sqlite3 .dump + zip -r",
                     baselineMedian: String(format: "%.1f s", baseBackup.seconds), ratio: BenchRow.ratio(backup.seconds, baseBackup.seconds)),
            BenchRow(area: "backup", figure: "backup restore (peak \(Int(restore.peakMiB)) MiB)",
                     median: String(format: "%.1f s", restore.seconds), baseline: "unzip + sqlite3 < dump",
                     baselineMedian: String(format: "%.1f s", baseRestore.seconds), ratio: BenchRow.ratio(restore.seconds, baseRestore.seconds)),
        ])
    }

    static func row(_ name: String, _ ours: Measured, _ baseName: String, _ base: Measured) {
        print(String(format: "| %@ | %.2f s | %.0f MiB | %@ | %.2f s | %.0f MiB | %.2f× |", name, ours.seconds, ours.peakMiB,
                     baseName, base.seconds, base.peakMiB, ours.seconds / max(base.seconds, 1e-6)))
    }

    /// Runs a command under `/usr/bin/time`: wall seconds and the peak RSS of the process tree.
    static func measure(_ command: [String]) throws -> Measured {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        p.arguments = ["-f", "TIME %e %M"] + command
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard p.terminationStatus == 0, let line = errors.split(separator: "\n").last(where: { $0.hasPrefix("TIME ") }) else {
            throw BenchFailure.command(command.joined(separator: " "), errors)
        }
        let parts = line.split(separator: " ")
        return Measured(seconds: Double(parts[1]) ?? .nan, peakMiB: (Double(parts[2]) ?? .nan) / 1024,
                        output: output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    static func mib(_ path: String) -> String {
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.doubleValue ?? 0
        return String(format: "%.1f", size / 1_048_576)
    }
}

enum BenchFailure: Error { case command(String, String) }
