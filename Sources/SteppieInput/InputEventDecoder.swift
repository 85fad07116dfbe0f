import CEvdev

/// One `struct input_event` as read from the device (the kernel's timestamp is not used).
public struct InputEvent: Equatable, Sendable {
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(type: UInt16, code: UInt16, value: Int32) {
        self.type = type
        self.code = code
        self.value = value
    }

    /// A key or button went down (`EV_KEY`, value 1); release (0) and autorepeat (2) are not presses.
    public var isKeyPress: Bool { type == UInt16(EV_KEY) && value == 1 }
}

/// Cuts a byte stream into whole `struct input_event` records, keeping a partial record until
/// the rest of it arrives (a pipe may deliver half a record; the kernel never does). Pure.
public struct InputEventDecoder: Equatable, Sendable {
    /// The size of one record: `sizeof(struct input_event)` (24 bytes on 64-bit Linux).
    public static let recordSize = MemoryLayout<input_event>.size

    /// Bytes of a record not yet complete (always fewer than `recordSize`).
    public private(set) var pending: [UInt8] = []

    public init() {}

    /// Appends `bytes` and returns the records now complete, in order.
    public mutating func feed(_ bytes: some Collection<UInt8>) -> [InputEvent] {
        pending.append(contentsOf: bytes)
        let whole = pending.count / Self.recordSize
        guard whole > 0 else { return [] }
        var events: [InputEvent] = []
        events.reserveCapacity(whole)
        pending.withUnsafeBytes { raw in
            for i in 0..<whole {
                let record = raw.loadUnaligned(fromByteOffset: i * Self.recordSize, as: input_event.self)
                events.append(InputEvent(type: record.type, code: record.code, value: record.value))
            }
        }
        pending.removeFirst(whole * Self.recordSize)
        return events
    }

    /// Drops a partial record (the device was closed; its rest will never come).
    public mutating func reset() { pending.removeAll() }
}
