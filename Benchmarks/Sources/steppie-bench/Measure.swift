import SteppieBenchSupport
import Foundation

/// Timing samples and their summary.
struct Samples {
    var values: [Double] = []   // milliseconds

    mutating func time(_ body: () throws -> Void) rethrows {
        let start = ContinuousClock.now
        try body()
        let d = ContinuousClock.now - start
        values.append(Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15)
    }

    func percentile(_ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = min(sorted.count - 1, max(0, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1))
        return sorted[rank]
    }

    var median: Double { percentile(50) }
    var p99: Double { percentile(99) }
}

/// One line of the report table.
struct ReportRow {
    let name: String
    let samples: Samples
    let target: String
    let baselineName: String
    let baseline: Samples?
}

enum Report {
    static func print(title: String, area: String, rows: [ReportRow]) {
        BenchRow.publish(rows.map { r in
            BenchRow(area: area, figure: r.name, median: BenchRow.ms(r.samples.median), p99: BenchRow.ms(r.samples.p99), target: r.target,
                     baseline: r.baselineName, baselineMedian: r.baseline.map { BenchRow.ms($0.median) } ?? "-",
                     ratio: r.baseline.map { BenchRow.ratio(r.samples.median, $0.median) } ?? "-")
        })
        Swift.print("\n## \(title)\n")
        Swift.print("| figure | median | p99 | target | baseline (same run) | baseline median | ratio |")
        Swift.print("|---|---|---|---|---|---|---|")
        for r in rows {
            let ratio = r.baseline.map { String(format: "%.2f×", r.samples.median / max($0.median, 1e-9)) } ?? "-"
            Swift.print("| \(r.name) | \(fmt(r.samples.median)) | \(fmt(r.samples.p99)) | \(r.target) | \(r.baselineName) | \(r.baseline.map { fmt($0.median) } ?? "-") | \(ratio) |")
        }
    }

    static func fmt(_ ms: Double) -> String {
        ms < 1 ? String(format: "%.3f ms", ms) : String(format: "%.2f ms", ms)
    }
}

/// Peak resident memory of this process so far (VmHWM), in MiB.
func peakRSSMiB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return .nan }
    let kb = Double(line.split(separator: " ").dropFirst().first ?? "") ?? .nan
    return kb / 1024
}
