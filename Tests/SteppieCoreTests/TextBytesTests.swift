import Foundation
import Testing
@testable import SteppieCore

/// The byte-level readers and writers a backup uses for its millions of ids, dates and stamps
/// must agree with the string-based ones everywhere else.
@Suite struct TextBytesTests {
    static func parse(_ text: String) -> UUID? {
        Array(text.utf8).withUnsafeBufferPointer { UUIDText.parse($0) }
    }

    @Test func uuidTextAcceptsExactlyWhatFoundationAccepts() {
        let cases = [
            "0b04ae90-98b9-491e-ab17-7495f1f205fc", "0B04AE90-98B9-491E-AB17-7495F1F205FC", "0b04AE90-98b9-491E-ab17-7495F1f205Fc",
            "0b04ae90-98b9-491e-ab17-7495f1f205f", "0b04ae90-98b9-491e-ab17-7495f1f205fcc", "{0b04ae90-98b9-491e-ab17-7495f1f205fc}",
            " 0b04ae90-98b9-491e-ab17-7495f1f205f", "+b04ae90-98b9-491e-ab17-7495f1f205fc", "0b04ae9098b9491eab177495f1f205fc",
            "0b04ae90-98b9-491e-ab17-7495f1f205f\u{0}", "0b04ae90-98b9-491e-ab17+7495f1f205fc", "0b04ae90-98b9-491e-ab17-7495f1f205fg",
            "0b04ae90x98b9-491e-ab17-7495f1f205fc", "0b04ae9-098b9-491e-ab17-7495f1f205fc", "0b04ae90-98b9-491e-ab17-7495f1f205f٣",
            "0b04ae90-98b9-491e-ab17-7495f1f205f@", "0b04ae90-98b9-491e-ab17-7495f1f205f`", "0b04ae90-98b9-491e-ab17-7495f1f205f/",
            "0b04ae90-98b9-491e-ab17-7495f1f205f:", "0b04ae90-98b9-491e-ab17-7495f1f205fG", "0b04ae90-98b9-491e-ab17-7495f1f205fé",
            "", "x", String(repeating: "-", count: 36), "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff",
        ]
        for text in cases {
            #expect(Self.parse(text) == UUID(uuidString: text), "\(text.debugDescription)")
        }
        for _ in 0..<2000 {
            let id = UUID()
            #expect(Self.parse(id.uuidString) == id)
            #expect(Self.parse(id.uuidString.lowercased()) == id)
            var bytes = [UInt8](repeating: 0, count: UUIDText.length)
            bytes.withUnsafeMutableBufferPointer { UUIDText.writeLowercase(id, to: $0.baseAddress!) }
            #expect(String(decoding: bytes, as: UTF8.self) == id.uuidString.lowercased())
        }
        // Every single-byte change of a canonical id is judged like Foundation judges it.
        let base = Array("0b04ae90-98b9-491e-ab17-7495f1f205fc".utf8)
        for position in [0, 7, 8, 13, 35] {
            for b in UInt8(0)...UInt8(255) {
                var bytes = base
                bytes[position] = b
                let text = String(decoding: bytes, as: UTF8.self)
                let ours = bytes.withUnsafeBufferPointer { UUIDText.parse($0) }
                #expect(ours == UUID(uuidString: text), "byte \(b) at \(position)")
            }
        }
    }

    @Test func localDayBytesMatchItsText() {
        for n in stride(from: -400_000, through: 2_900_000, by: 997) {
            let day = LocalDay(dayNumber: n)
            guard (1...9999).contains(day.year) else { continue }
            let text = String(format: "%04d-%02d-%02d", day.year, day.month, day.day)
            #expect(day.description == text)
            #expect(Array(text.utf8).withUnsafeBufferPointer { LocalDay(utf8: $0) } == day)
        }
        for bad in ["2026-02-30", "2026-13-01", "2026-1-01", "20260101", "2026-01-01 ", "２０２６-01-01", "0000-01-01"] {
            #expect(Array(bad.utf8).withUnsafeBufferPointer { LocalDay(utf8: $0) } == nil, "\(bad)")
            #expect(LocalDay(bad) == nil)
        }
    }

    @Test func timestampBytesParseLikeText() {
        for text in ["2026-03-08T07:30:00.000+09:00", "2026-03-08T07:30:00Z", "2026-03-08t07:30:00.5-0330", "2026-03-08T07:30:00",
                     "2026-03-08T24:00:00Z", "2026-02-29T00:00:00Z", "2024-02-29T23:59:60.999+14:00", "garbage"] {
            #expect(Array(text.utf8).withUnsafeBufferPointer { Timestamp.parse(utf8: $0) } == Timestamp.parse(text), "\(text)")
        }
    }
}
