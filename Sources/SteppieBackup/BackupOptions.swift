import SteppieCore
/// Limits a backup must stay within; the defaults follow the backup contract and stay well above
/// the 10-year fixture (`TenYearFixture`: 10 children × 3 sets × 10 routines, 1 095 600 logs,
/// data.json 336 MiB, 60 photos). docs/backup.md says why each value was chosen.
public struct BackupLimits: Sendable, Equatable {
    /// Largest photo, 5 MiB as in the contract.
    public var maxAssetBytes = UInt64(PhotoContent.maxBytes)
    /// Largest data.json.
    public var maxDataBytes: UInt64 = 512 << 20
    /// Largest manifest.json.
    public var maxManifestBytes: UInt64 = 1 << 20
    /// All entries together, uncompressed: as declared by the headers and as actually read.
    /// data.json's 512 MiB plus 300 photos of 5 MiB (one per routine of the 10-year fixture).
    public var maxTotalBytes: UInt64 = 2 << 30
    /// Refuse any entry whose uncompressed size exceeds this many times its compressed size.
    public var maxCompressionRatio: UInt64 = 1000
    /// Most entries in one archive.
    public var maxEntries = 20_000
    /// Deepest JSON nesting; Steppie's format needs 4 levels (data → routines → routine → title).
    public var maxJSONDepth = 32
    /// Longest JSON string (or number), in bytes after unescaping; titles are at most 200 characters.
    public var maxJSONStringBytes = 64 << 10
    /// Largest value of a field Steppie does not read: skipped without being kept, but not forever.
    public var maxUnknownValueBytes = 64 << 20
    /// Memory the kept JSON of data.json may take outside its daily logs (and each log by
    /// itself), estimated as 48 bytes per value plus the bytes of its strings and keys.
    public var maxStructureBytes = 64 << 20
    /// Most daily logs (the 10-year fixture has 1 095 600).
    public var maxDailyLogs = 2_000_000
    /// Most routines (the 10-year fixture has 300).
    public var maxRoutines = 10_000
    /// Most routine sets (the 10-year fixture has 30).
    public var maxRoutineSets = 1_000
    /// Most children (the 10-year fixture has 10).
    public var maxChildren = 100
    /// Most weekly schedule slots: 56 a child (8 start times a day) for the most children.
    public var maxScheduleSlots = 5_600
    /// Most routine looks (what completions showed): one per title or picture a routine had when
    /// completed; 10 renames or new photos for each of the most routines.
    public var maxRoutineLooks = 100_000

    public init() {}

    /// The record-count cap for `kind`.
    public func maxRecords(_ kind: RecordKind) -> Int {
        switch kind {
        case .dailyLogs: maxDailyLogs
        case .routines: maxRoutines
        case .routineSets: maxRoutineSets
        case .children: maxChildren
        case .weeklySchedules: maxScheduleSlots
        case .routineLooks: maxRoutineLooks
        }
    }
}

/// The kinds of records data.json holds, by their array's name.
public enum RecordKind: String, Sendable, Codable, CaseIterable {
    case dailyLogs, routines, routineSets, children, weeklySchedules, routineLooks
}

/// How far an operation got: entries (or rows) done out of the total.
public struct BackupProgress: Sendable, Equatable, Codable {
    /// What is being done: `reading`, `writing`, `restoring`.
    public var phase: String
    public var done: Int
    public var total: Int
    /// The entry being handled, when there is one.
    public var item: String?

    public init(phase: String, done: Int, total: Int, item: String? = nil) {
        self.phase = phase; self.done = done; self.total = total; self.item = item
    }
}

/// Receives progress reports; called on the caller's thread.
public typealias ProgressHandler = (BackupProgress) -> Void

/// Options of a restore. `failAt` exists for tests: it makes the named step fail after it ran,
/// to prove that everything is put back.
public struct RestoreOptions: Sendable {
    public var limits = BackupLimits()
    /// The name of the one child that a backup from the iOS or Android app is restored into.
    public var defaultChildName: String
    /// Test hook: fail right after this step.
    public var failAt: RestoreStep?
    /// For a phone backup: the child (name or id) whose data it replaces; a name no child has makes
    /// a new child. Nil: the only child (none: a new child named `defaultChildName`; several:
    /// `BackupError.childRequired` unless the restore is given a way to ask). Refused for a Linux backup.
    public var child: String?
    /// Decodes a backup's recordings (`SoundFile.decodeRecording`); without one, a backup that
    /// carries recordings is refused.
    public var decodeAudio: AudioDecoder = AudioDecodeFailure.unavailable

    public init(defaultChildName: String, limits: BackupLimits = BackupLimits(), failAt: RestoreStep? = nil, child: String? = nil) {
        self.defaultChildName = defaultChildName; self.limits = limits; self.failAt = failAt; self.child = child
    }
}
