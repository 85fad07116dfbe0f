/// One field of one record set to a value at a hybrid timestamp: the unit every device logs in
/// the same transaction as the edit, pushes, and applies.
package struct FieldChange: Hashable, Sendable, Codable {
    package let entity: SyncEntity
    package let record: String
    /// The child the record belongs to: what decides which devices may send and receive it.
    package let child: String
    package let field: String
    package let value: SyncValue
    package let stamp: HybridTimestamp

    package init(entity: SyncEntity, record: String, child: String, field: String, value: SyncValue, stamp: HybridTimestamp) {
        self.entity = entity
        self.record = record
        self.child = child
        self.field = field
        self.value = value
        self.stamp = stamp
    }

    package var key: RecordKey { RecordKey(entity, record) }
}

/// A value with the stamp of the write that set it.
package struct Versioned: Hashable, Sendable, Codable {
    package let value: SyncValue
    package let stamp: HybridTimestamp

    package init(_ value: SyncValue, _ stamp: HybridTimestamp) {
        self.value = value
        self.stamp = stamp
    }

    /// Last writer wins by hybrid timestamp: the incoming value replaces the current one only when
    /// its stamp is later. Stamps are unique (the device is part of them), so the decision is the
    /// same on every device, in whatever order the two arrive.
    package static func wins(_ incoming: HybridTimestamp, over current: Versioned?) -> Bool {
        guard let current else { return true }
        return current.stamp < incoming
    }
}
