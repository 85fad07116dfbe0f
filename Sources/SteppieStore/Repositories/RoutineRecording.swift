import Foundation
import SteppieCore

/// A guardian's recording of a routine title in one locale (a row of `routine_recordings`).
public struct RoutineRecording: Hashable, Sendable {
    public var routineId: UUID
    /// Language tag, `ko` or `en`.
    public var locale: String
    /// File name inside the `recordings/` folder beside the database.
    public var fileName: String
    public var durationMs: Int
    public var createdAt: Date
    /// The SHA-256 of the file's bytes (lowercase hex): the name its content syncs by (schema
    /// v11); nil for a recording kept before, which does not sync until it is recorded again.
    public var sha256: String?

    public init(routineId: UUID, locale: String, fileName: String, durationMs: Int, createdAt: Date, sha256: String? = nil) {
        self.routineId = routineId; self.locale = locale; self.fileName = fileName
        self.durationMs = durationMs; self.createdAt = createdAt; self.sha256 = sha256
    }

    /// The longest recording accepted, in milliseconds.
    public static let maximumDurationMs = RecordingCheck.maximumMilliseconds
}
