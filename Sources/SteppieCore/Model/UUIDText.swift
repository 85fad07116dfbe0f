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

    /// The canonical form only; nil for anything else.
    static func canonical(_ u: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard u.count == length, u[8] == 0x2D, u[13] == 0x2D, u[18] == 0x2D, u[23] == 0x2D else { return nil }
        // 32 hex digits into two 64-bit halves; any non-hex digit sets a high bit of `bad`.
        var high: UInt64 = 0, low: UInt64 = 0, bad: UInt8 = 0
        var i = 0, digits = 0
        while i < length {
            if i == 8 || i == 13 || i == 18 || i == 23 { i += 1; continue }
            let v = value(u[i])
            bad |= v
            if digits < 16 { high = high << 4 | UInt64(v & 0x0F) } else { low = low << 4 | UInt64(v & 0x0F) }
            digits += 1
            i += 1
        }
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
