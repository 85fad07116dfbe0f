import Foundation

// The benchmark's clock and how its figures are written.

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
func ms(_ ns: UInt64) -> Double { Double(ns) / 1e6 }
func percentile(_ xs: [Double], _ p: Double) -> Double {
    guard !xs.isEmpty else { return .nan }
    let s = xs.sorted()
    return s[min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))]
}
func progress(_ s: String) { FileHandle.standardError.write(Data("bench-sync: \(s)\n".utf8)) }
func mib(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
func seconds(_ s: Double) -> String { String(format: "%.1f s", s) }
