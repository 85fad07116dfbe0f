import Foundation
import SteppieCore

/// A hybrid logical clock reading (Kulkarni et al. 2014): the wall time in milliseconds, a counter
/// for events within one millisecond (or while the wall clock stands behind the clock's own wall
/// time), and the device that made it. Changes are ordered by (wall, counter, device), never by
/// the wall clock alone, so two devices' stamps are never equal and every device orders them alike.
package struct HybridTimestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    package let wall: Int64
    package let counter: UInt32
    package let device: DeviceID

    /// The largest counter a stamp may carry; a clock that would pass it waits for the wall clock
    /// (in practice 16 million events within one millisecond never happen).
    package static let maxCounter: UInt32 = 0xFF_FFFF
    /// The largest wall time written in 15 digits (year 33658): a larger one is refused as input.
    package static let maxWall: Int64 = 999_999_999_999_999

    package init(wall: Int64, counter: UInt32, device: DeviceID) {
        self.wall = wall
        self.counter = counter
        self.device = device
    }

    package static func < (a: HybridTimestamp, b: HybridTimestamp) -> Bool {
        if a.wall != b.wall { return a.wall < b.wall }
        if a.counter != b.counter { return a.counter < b.counter }
        return a.device < b.device
    }

    /// The wire form, which sorts as the stamps do: `<wall, 15 digits>-<counter, 8 hex digits>-<device>`.
    package var description: String {
        let w = String(wall)
        let c = String(counter, radix: 16)
        return String(repeating: "0", count: max(0, 15 - w.count)) + w + "-"
            + String(repeating: "0", count: max(0, 8 - c.count)) + c + "-" + device.text
    }

    /// Reads the wire form; nil for anything else (a wrong length, a sign, a device that is not a UUID).
    package init?(_ text: String) {
        // Read byte by byte (a fresh copy reads about a million of them): 15 decimal digits, `-`,
        // 8 lowercase hex digits, `-`, a device id.
        var text = text
        let parsed: HybridTimestamp? = text.withUTF8 { bytes in
            guard bytes.count == 15 + 1 + 8 + 1 + 36, bytes[15] == UInt8(ascii: "-"), bytes[24] == UInt8(ascii: "-") else { return nil }
            var wall: Int64 = 0
            for byte in bytes[0..<15] {
                guard let digit = Self.decimal(byte) else { return nil }
                wall = wall * 10 + Int64(digit)
            }
            var counter: UInt32 = 0
            for byte in bytes[16..<24] {
                guard let digit = Self.lowercaseHex(byte) else { return nil }
                counter = counter << 4 | UInt32(digit)
            }
            guard counter <= Self.maxCounter, UUIDText.isLowercase(UnsafeBufferPointer(rebasing: bytes[25...])) else { return nil }
            return HybridTimestamp(wall: wall, counter: counter, device: DeviceID(checked: String(decoding: bytes[25...], as: UTF8.self)))
        }
        guard let parsed else { return nil }
        self = parsed
    }

    private static func decimal(_ byte: UInt8) -> UInt8? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : nil
    }

    private static func lowercaseHex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}

extension HybridTimestamp: Codable {
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let stamp = HybridTimestamp(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a hybrid timestamp")
        }
        self = stamp
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// A device's identity in sync: a lowercase UUID, made once per database and never synced.
package struct DeviceID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    package let text: String

    package init?(_ text: String) {
        var text = text
        guard text.withUTF8(UUIDText.isLowercase) else { return nil }
        self.text = text
    }

    /// A text already checked to be a lowercase UUID.
    fileprivate init(checked text: String) { self.text = text }

    package init(_ uuid: UUID) { text = uuid.uuidString.lowercased() }

    package static func < (a: DeviceID, b: DeviceID) -> Bool { a.text < b.text }
    package var description: String { text }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let id = DeviceID(try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a device id")
        }
        self = id
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
