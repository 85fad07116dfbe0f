/// Limits a backup must stay within; the defaults follow the backup contract.
public struct BackupLimits: Sendable, Equatable {
    /// Largest photo, 5 MiB as in the contract.
    public var maxAssetBytes: UInt64 = 5 << 20
    /// Largest data.json.
    public var maxDataBytes: UInt64 = 512 << 20
    /// Largest manifest.json.
    public var maxManifestBytes: UInt64 = 1 << 20
    /// Refuse any entry whose uncompressed size exceeds this many times its compressed size.
    public var maxCompressionRatio: UInt64 = 1000
    /// Most entries in one archive.
    public var maxEntries = 20_000

    public init() {}
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

    public init(defaultChildName: String, limits: BackupLimits = BackupLimits(), failAt: RestoreStep? = nil) {
        self.defaultChildName = defaultChildName; self.limits = limits; self.failAt = failAt
    }
}
