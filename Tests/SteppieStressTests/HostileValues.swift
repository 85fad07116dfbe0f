import Foundation

/// Hostile strings, numbers and bytes from a deterministic generator.
struct HostileValues {
    var rng: SplitMix

    init(seed: UInt64) { rng = SplitMix(seed: seed) }

    mutating func int(_ upper: Int) -> Int { Int(rng.next() % UInt64(max(1, upper))) }
    mutating func chance(_ percent: Int) -> Bool { int(100) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }

    static let specials: [String] = [
        "", " ", "\u{0}", "a\u{0}b", "\u{202E}evil\u{202C}", "\u{2066}x\u{2069}", "\u{200F}", "\u{FEFF}", "\r\n", "\t",
        "\u{1B}[2J", "\u{7F}", "\u{85}", "\u{2028}", "e\u{301}\u{301}\u{301}\u{301}", "👩‍👩‍👧‍👦", "🏳️‍🌈", "\u{FFFD}",
        "--", "-", "--db", "--help", "-h", "=", "--tts-rate=1", "%s%n%x", "'; DROP TABLE routines; --", "../../etc/passwd",
        "NaN", "nan", "inf", "-inf", "Infinity", "1e308", "1e309", "-1e309", "4.9e-324", "-0", "0x10", "1_000",
        "99999999999999999999999999", "-9223372036854775809", "9223372036854775807", "18446744073709551616",
        "0.5", "1.5", "3", "5", "10", "07:00", "25:61", "21:00-07:00", "24:00-00:00", "10,5", "none", "system",
    ]

    /// A string that is likely to upset a parser or validator.
    mutating func string() -> String {
        switch int(9) {
        case 0: return pick(Self.specials)
        case 1: return String(repeating: pick(["a", "가", "\u{202E}", "😀", "\u{0}", "e\u{301}"]), count: 1 + int(50_000))
        case 2: return String(decoding: bytes(1 + int(64)), as: UTF8.self)   // invalid UTF-8, repaired
        case 3: return String((0..<(1 + int(20))).map { _ in Character(Unicode.Scalar(UInt8(int(32)))) })
        case 4: return pick(Self.specials) + pick(Self.specials) + pick(Self.specials)
        case 5: return String(int(Int.max) * (chance(50) ? 1 : -1))
        case 6: return "\(Double(bitPattern: rng.next()))"
        case 7: return String(repeating: "9", count: 1 + int(400))
        default:
            let scalars = (0..<(1 + int(30))).compactMap { _ in Unicode.Scalar(UInt32(int(0x11_0000))) }
            return String(String.UnicodeScalarView(scalars))
        }
    }

    mutating func double() -> Double {
        switch int(6) {
        case 0: return pick([.nan, .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                             .leastNonzeroMagnitude, -0.0, 0, 0.5, 1.5, 1.0000001, 0.4999999])
        case 1: return Double(bitPattern: rng.next())
        case 2: return Double(int(2_000_001)) / 1000 - 1000
        default: return Double(int(3_000)) / 1000
        }
    }

    mutating func integer() -> Int {
        switch int(4) {
        case 0: return pick([Int.min, Int.max, -1, 0, 1, 3, 5, 10, 99, 100, 240, 241])
        case 1: return Int(bitPattern: UInt(rng.next()))
        default: return int(300) - 20
        }
    }

    mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) } }

    /// `data` with a few random mutations: flipped bytes, cut, duplicated or inserted runs.
    mutating func mutate(_ data: [UInt8]) -> [UInt8] {
        var d = data
        for _ in 0..<(1 + int(4)) {
            guard !d.isEmpty else { return bytes(int(64)) }
            let at = int(d.count)
            switch int(6) {
            case 0: d[at] ^= UInt8(1 << int(8))
            case 1: d[at] = UInt8(truncatingIfNeeded: rng.next())
            case 2: d = Array(d[..<at])
            case 3: d.insert(contentsOf: bytes(1 + int(16)), at: at)
            case 4: d.removeSubrange(at..<min(d.count, at + 1 + int(32)))
            default: d.insert(contentsOf: d[at..<min(d.count, at + 1 + int(64))], at: at)
            }
        }
        return d
    }
}

/// Runs `body` on its own thread and reports whether it finished within `seconds`; a hang
/// fails the test instead of stalling the whole suite.
func finishes(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.stackSize = 16 << 20
    thread.start()
    return done.wait(timeout: .now() + seconds) == .success
}
