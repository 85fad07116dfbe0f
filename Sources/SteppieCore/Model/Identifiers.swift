import Foundation

/// Where new ids come from; injected so tests and replays are deterministic.
public protocol IdentifierSource: Sendable {
    func next() -> UUID
}

/// Random UUID v4 ids.
public struct RandomIdentifiers: IdentifierSource {
    public init() {}
    public func next() -> UUID { UUID() }
}

extension UUID {
    /// The contract's spelling: lowercase.
    public var lowercased: String { uuidString.lowercased() }
}

/// Time-ordered ids for a bulk write (RFC 9562 UUIDv7 with the "monotonic random" counter of its
/// §6.2, method 2): the given Unix milliseconds, then 74 bits that start at random and count up by
/// one per id. Each id sorts after the one before, so a write of a million rows (a fresh copy's
/// days) adds its ids at one place of the primary key's index, in order, instead of at a million
/// random places; they stay as unique as random ids against every other row (the start is 73
/// random bits). Time and the random start are passed in.
public struct OrderedIdentifiers: Sendable {
    private var milliseconds: UInt64
    /// `rand_a`: 12 bits, the top one 0 at the start so the count has room to carry into it.
    private var high: UInt16
    /// `rand_b`: 62 bits.
    private var low: UInt64

    private static let lowLimit: UInt64 = 1 << 62

    /// Starts at `milliseconds` (after 1970, in 48 bits) with the counter taken from `seed`'s bytes.
    public init(milliseconds: Int64, seed: UUID) {
        self.milliseconds = UInt64(clamping: milliseconds) & 0xFFFF_FFFF_FFFF
        let b = seed.uuid
        high = (UInt16(b.6) << 8 | UInt16(b.7)) & 0x07FF
        low = [b.8, b.9, b.10, b.11, b.12, b.13, b.14, b.15].reduce(0) { $0 << 8 | UInt64($1) } & (Self.lowLimit - 1)
    }

    /// The next id, in lowercase text (the contract's spelling).
    public mutating func next() -> String {
        let ms = milliseconds, a = high, b = low
        low += 1
        if low == Self.lowLimit {
            low = 0
            high += 1
            if high == 0x1000 {   // 2^74 ids in one millisecond: the clock part moves on
                high = 0
                milliseconds = (milliseconds + 1) & 0xFFFF_FFFF_FFFF
            }
        }
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<6 { bytes[i] = UInt8(truncatingIfNeeded: ms >> (8 * (5 - i))) }
        bytes[6] = 0x70 | UInt8(truncatingIfNeeded: a >> 8)
        bytes[7] = UInt8(truncatingIfNeeded: a)
        bytes[8] = 0x80 | UInt8(truncatingIfNeeded: b >> 56)
        for i in 9..<16 { bytes[i] = UInt8(truncatingIfNeeded: b >> (8 * (15 - i))) }
        let id = bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
        return String(unsafeUninitializedCapacity: UUIDText.length) { out in
            UUIDText.writeLowercase(id, to: out.baseAddress!)
            return UUIDText.length
        }
    }
}
