import Foundation

/// UUIDs as the 36 characters of their text form, read and written as bytes: a backup or a
/// restore handles millions of them, and Foundation's `UUID(uuidString:)` goes through `sscanf`.
public enum UUIDText {
    /// The length of `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`.
    public static let length = 36

    /// The UUID in `u`, accepting exactly what `UUID(uuidString:)` accepts: the canonical form
    /// (hex digits in either case, dashes at 8, 13, 18, 23) is parsed here; anything else is
    /// handed to Foundation, whose lenient corners (a leading space or sign) stay as they were.
    public static func parse(_ u: UnsafeBufferPointer<UInt8>) -> UUID? {
        if u.count == length, let id = canonical(u) { return id }
        return UUID(uuidString: String(decoding: u, as: UTF8.self))
    }

    /// The UUID of `text` (see `parse(_:)`).
    public static func parse(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    /// Whether `u` is a UUID's text exactly as `writeLowercase` writes it (the canonical form, no
    /// uppercase digit): what `UUID(uuidString:)` reads and `uuidString.lowercased()` gives back.
    public static func isLowercase(_ u: UnsafeBufferPointer<UInt8>) -> Bool {
        canonical(u) != nil && !u.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F") }
    }

    /// The canonical form only; nil for anything else.
    static func canonical(_ u: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard u.count == length, let p = u.baseAddress, p[8] == 0x2D, p[13] == 0x2D, p[18] == 0x2D, p[23] == 0x2D else { return nil }
        // The digit groups at fixed places (8-4-4-4-12), unrolled: a restore parses millions.
        // Any non-hex digit sets a high bit of `bad`.
        var bad: UInt8 = 0
        @inline(__always) func digits(_ at: Int, _ count: Int) -> UInt64 {
            var v: UInt64 = 0
            for k in 0..<count {
                let d = value(p[at + k])
                bad |= d
                v = v << 4 | UInt64(d & 0x0F)
            }
            return v
        }
        let high = digits(0, 8) << 32 | digits(9, 4) << 16 | digits(14, 4)
        let low = digits(19, 4) << 48 | digits(24, 12)
        guard bad & 0xF0 == 0 else { return nil }
        return withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
    }

    /// The value of a hex digit, or 0xFF.
    @inline(__always)
    static func value(_ b: UInt8) -> UInt8 {
        let digit = b &- 0x30
        if digit < 10 { return digit }
        let letter = (b | 0x20) &- 0x61
        return letter < 6 ? letter &+ 10 : 0xFF
    }

    /// Writes the lowercase text of `id` (36 bytes, what `id.uuidString.lowercased()` gives) at `out`.
    public static func writeLowercase(_ id: UUID, to out: UnsafeMutablePointer<UInt8>) {
        withUnsafeBytes(of: id.uuid) { raw in
            var o = 0
            for k in 0..<16 {
                if k == 4 || k == 6 || k == 8 || k == 10 { out[o] = 0x2D; o += 1 }
                let b = raw[k]
                out[o] = hex(b >> 4)
                out[o + 1] = hex(b & 0x0F)
                o += 2
            }
        }
    }

    @inline(__always)
    private static func hex(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 &+ v : 0x57 &+ v }
}
