import SteppieCore
import SteppieFiles
import SteppieStore

/// Why a backup could not be written, read, verified or restored. Each case names what is
/// wrong so a front end can map it to a catalog message.
public enum BackupError: Error, Equatable, Sendable {
    // The archive as a file.
    /// The file is not a ZIP archive (or is damaged beyond reading its directory).
    case notAZip(path: String, reason: String)
    /// libzip failed on an operation; `code` is libzip's error code, `message` its text.
    case zip(operation: String, code: Int32, message: String)
    /// libsodium failed (it should not; the library is broken or missing).
    case crypto(operation: String, code: Int32)
    /// A file or directory operation failed.
    case fileSystem(path: String, reason: String)
    /// The archive to read, or the path to write, is a device, a FIFO, a folder or a socket; it was not touched.
    case notRegularFile(path: String, kind: FileKind)

    // Entries.
    /// A name with `..`, a leading `/`, a backslash or control characters.
    case unsafeEntryName(String)
    /// A well-formed name that is none of manifest.json, data.json, assets/, assets/<photo name>.
    case unexpectedEntry(String)
    case duplicateEntry(String)
    case missingEntry(String)
    /// Declared or actual uncompressed size over the limit for that entry.
    case entryTooLarge(name: String, size: UInt64, limit: UInt64)
    /// Uncompressed size more than `BackupLimits.maxCompressionRatio` times the compressed size.
    case compressionRatioTooHigh(name: String, uncompressed: UInt64, compressed: UInt64)
    /// More bytes came out of an entry than its header declared.
    case entrySizeMismatch(name: String, declared: UInt64)
    /// Reading or inflating an entry failed (bad CRC, broken deflate stream, …).
    case entryUnreadable(name: String, reason: String)
    case tooManyEntries(count: Int, limit: Int)
    /// All entries together hold more than `BackupLimits.maxTotalBytes` (declared, or found while reading).
    case totalTooLarge(size: UInt64, limit: UInt64)
    /// A photo entry is not a JPEG or PNG image (judged by its content, not its name).
    case notAnImage(name: String)
    /// A photo entry's size in pixels is over `PhotoContent.maxSide` or `PhotoContent.maxPixels`.
    case imageTooLarge(name: String, width: Int, height: Int)
    /// A photo's bytes do not have the SHA-256 the history's snapshot (`routineLooks`) names it by.
    case photoHashMismatch(name: String, expected: String, actual: String)

    // Manifest and checksum.
    case manifestInvalid(field: String, reason: String)
    case wrongApp(String)
    case unsupportedSchemaVersion(Int)
    case unsupportedPlatform(String)
    case unsupportedChecksumAlgorithm(String)
    case checksumMismatch(expected: String, actual: String)

    // JSON limits (`name` is the entry: data.json or manifest.json).
    /// Arrays and objects nested deeper than `BackupLimits.maxJSONDepth`.
    case jsonTooDeep(name: String, limit: Int)
    /// A string or number longer than `BackupLimits.maxJSONStringBytes`, at byte `offset`.
    case jsonStringTooLong(name: String, offset: Int, limit: Int)
    /// The value of a field Steppie does not read (`field`) is over `BackupLimits.maxUnknownValueBytes`.
    case unknownFieldTooLarge(name: String, field: String, limit: Int)
    /// The kept part of data.json is over `BackupLimits.maxStructureBytes`.
    case dataStructureTooLarge(limit: Int)
    /// More records of one kind than `BackupLimits.maxRecords(kind)`.
    case tooManyRecords(kind: RecordKind, limit: Int)

    // data.json.
    /// Not JSON, or a field of the wrong type; `path` is where (`routines[3].title`).
    case dataInvalid(path: String, reason: String)
    case duplicateId(entity: String, id: String)
    case duplicateLog(date: String, routineId: String)
    /// A reference that resolves to nothing (`entity` `id`'s `field` points at missing `target`).
    case danglingReference(entity: String, id: String, field: String, target: String)
    /// A log whose set is not its routine's set.
    case logSetMismatch(logId: String)
    /// A backup without routine sets that still has routines or logs.
    case dataWithoutSets
    /// A value breaks the data contract (`entity` `id`).
    case contract(entity: String, id: String, violation: ContractViolation)
    case duplicateChildName(String)

    // Restore.
    /// A phone backup holds one child's data and the device has several children: the caller must
    /// say which one it replaces (`--child`); nothing changed.
    case childRequired(children: [String])
    /// A child was named for a Linux backup, which replaces the whole device; nothing changed.
    case childForDeviceBackup
    /// The confirmation (guardian PIN) was declined; nothing changed.
    case cancelled
    /// The store refused the data; everything was put back.
    case store(StoreError)
    /// A step failed and everything was put back; `reason` is the first error.
    case restoreFailed(step: RestoreStep, reason: String)
    /// A step failed and putting the old data back failed too (the worst case; tell the user where things are).
    case rollbackFailed(step: RestoreStep, reason: String, rollback: String)
}

/// The steps of a restore that change something, in the order they run.
public enum RestoreStep: String, Sendable, Codable, CaseIterable {
    case database, settings, assets
}
