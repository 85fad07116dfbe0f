import Foundation

/// One figure of the benchmark report: `make bench` gathers the rows of every benchmark into one
/// table (figure, median, p99, target, baseline measured in the same run, ratio).
public struct BenchRow: Sendable {
    public var area: String
    public var figure: String
    public var median: String
    public var p99: String
    public var target: String
    public var baseline: String
    public var baselineMedian: String
    public var ratio: String

    public init(area: String, figure: String, median: String, p99: String = "-", target: String = "-",
                baseline: String = "-", baselineMedian: String = "-", ratio: String = "-") {
        self.area = area; self.figure = figure; self.median = median; self.p99 = p99; self.target = target
        self.baseline = baseline; self.baselineMedian = baselineMedian; self.ratio = ratio
    }

    /// Appends the rows to the file named by `STEPPIE_BENCH_ROWS` (tab-separated), when set.
    public static func publish(_ rows: [BenchRow]) {
        guard let path = ProcessInfo.processInfo.environment["STEPPIE_BENCH_ROWS"], !path.isEmpty else { return }
        let clean = { (s: String) in s.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " ") }
        let text = rows.map { r in
            [r.area, r.figure, r.median, r.p99, r.target, r.baseline, r.baselineMedian, r.ratio].map(clean).joined(separator: "\t")
        }.joined(separator: "\n") + "\n"
        if let handle = FileHandle(forWritingAtPath: path) {
            handle.seekToEndOfFile()
            handle.write(Data(text.utf8))
            handle.closeFile()
        } else {
            _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        }
    }

    /// `1.23 ms` / `0.123 ms`.
    public static func ms(_ v: Double) -> String { v < 1 ? String(format: "%.3f ms", v) : String(format: "%.2f ms", v) }

    /// `3.4×`, the figure over its baseline.
    public static func ratio(_ ours: Double, _ base: Double) -> String { base > 0 ? String(format: "%.2f×", ours / base) : "-" }
}
