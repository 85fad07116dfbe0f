import Foundation
import SteppieCore

/// Guardian-recorded routine titles (`routine_recordings`). The audio files themselves live in
/// `recordingsDirectory`; the store only keeps their names.
extension Store {
    static let recordingColumns = "routine_id, locale, file_name, duration_ms, created_at, sha256"

    /// `<folder of the database>/recordings`, nil for an in-memory database.
    public var recordingsDirectory: URL? {
        guard db.path != ":memory:", !db.path.isEmpty else { return nil }
        return URL(fileURLWithPath: db.path).deletingLastPathComponent().appendingPathComponent("recordings")
    }

    /// Attaches a recording to a routine for `recording.locale`, replacing any earlier one.
    /// Returns the replaced recording (its file is now unused).
    @discardableResult
    public func setRecording(_ recording: RoutineRecording) throws -> RoutineRecording? {
        try validate {
            try Validator.locale(recording.locale)
            guard (1...RoutineRecording.maximumDurationMs).contains(recording.durationMs) else {
                throw ContractViolation(field: "recording.duration", value: "\(recording.durationMs) ms",
                                        allowed: "1…\(RoutineRecording.maximumDurationMs) ms")
            }
        }
        return try write {
            _ = try routine(id: recording.routineId)
            let old = try self.recording(routineId: recording.routineId, locale: recording.locale)
            try db.run("DELETE FROM routine_recordings WHERE routine_id = ? AND locale = ?",
                       [.text(recording.routineId.lowercased), .text(recording.locale)])
            try insertRecording(recording)
            return old
        }
    }

    /// Removes the recording of a routine in `locale`; returns it (nil when there was none).
    @discardableResult
    public func removeRecording(routineId: UUID, locale: String) throws -> RoutineRecording? {
        try write {
            _ = try routine(id: routineId)
            let old = try recording(routineId: routineId, locale: locale)
            try db.run("DELETE FROM routine_recordings WHERE routine_id = ? AND locale = ?",
                       [.text(routineId.lowercased), .text(locale)])
            return old
        }
    }

    /// The recording of a routine in `locale`, if any.
    public func recording(routineId: UUID, locale: String) throws -> RoutineRecording? {
        try read {
            try db.queryFirst("SELECT \(Store.recordingColumns) FROM routine_recordings WHERE routine_id = ? AND locale = ?",
                              [.text(routineId.lowercased), .text(locale)], decodeRecording)
        }
    }

    /// Every recording, optionally only those of `locale`, in insertion order.
    public func recordings(locale: String? = nil) throws -> [RoutineRecording] {
        try read {
            if let locale {
                return try db.query("SELECT \(Store.recordingColumns) FROM routine_recordings WHERE locale = ? ORDER BY rowid",
                                    [.text(locale)], decodeRecording)
            }
            return try db.query("SELECT \(Store.recordingColumns) FROM routine_recordings ORDER BY rowid", [], decodeRecording)
        }
    }

    func insertRecording(_ r: RoutineRecording) throws {
        try db.run("INSERT INTO routine_recordings (\(Store.recordingColumns)) VALUES (?, ?, ?, ?, ?, ?)",
                   [.text(r.routineId.lowercased), .text(r.locale), .text(r.fileName), .int(r.durationMs), stamp(r.createdAt),
                    .optionalText(r.sha256)])
    }

    func decodeRecording(_ row: Row) throws -> RoutineRecording {
        let id = row.text(0)
        guard let routineId = UUID(uuidString: id) else {
            throw StoreError.corruptRow(table: "routine_recordings", id: id, reason: "routine_id is not a UUID")
        }
        return RoutineRecording(routineId: routineId, locale: row.text(1), fileName: row.text(2), durationMs: row.int(3),
                                createdAt: Timestamp.parse(row.text(4)) ?? .distantPast, sha256: row.optionalText(5))
    }
}
