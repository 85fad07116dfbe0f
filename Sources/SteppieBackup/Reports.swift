import SteppieCore

/// How many of each thing a backup holds.
public struct BackupCounts: Sendable, Equatable, Codable {
    public var children: Int
    public var routineSets: Int
    public var routines: Int
    public var dailyLogs: Int
    public var assets: Int
}

/// The result of `BackupCreator.create`, ready for `--json`.
public struct BackupCreateReport: Sendable, Equatable, Codable {
    public var path: String
    public var bytes: UInt64
    /// SHA-256 of data.json, as in the manifest.
    public var checksum: String
    public var createdAt: String
    public var counts: BackupCounts
}

/// What a valid backup holds and what restoring it would do; the result of `verify`, and what
/// a restore shows for confirmation.
public struct RestorePlan: Sendable, Equatable, Codable {
    public var path: String
    public var sourcePlatform: BackupManifest.Platform
    public var backupSchemaVersion: Int
    public var createdAt: String
    public var appVersion: String
    public var dataBytes: UInt64
    public var checksum: String
    public var counts: BackupCounts
    /// Photo icons whose file was missing from the archive; restored as the builtin `star`.
    public var photosReplaced: Int
    /// Builtin icons this project does not know (other platforms); restored as `star`.
    public var iconsReplaced: Int
    /// After the restore the device has no guardian PIN: ask for a new one.
    public var needsNewPin: Bool
    /// What the restore would replace, counted in the current database (nil for `verify`).
    public var replacing: BackupCounts?
    /// The backup's children and sets by name, when asked for (`verify(…, naming: true)`), so a
    /// confirmation can name them.
    public var childNames: [String]?
    public var setNames: [LocalizedText]?
}

/// The result of a successful restore.
public struct RestoreReport: Sendable, Equatable, Codable {
    public var plan: RestorePlan
    public var needsNewPin: Bool
}
