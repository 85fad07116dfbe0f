import Foundation

/// Many daily logs held compactly, in order: a restore of a 10-year history holds a million of
/// them between validation and the insert. Each log is one fixed-size `Record` (64 bytes, where a
/// `DailyLog` takes 137); the routine, set and look ids it points at, a few hundred distinct values, are
/// kept once in `refs` and named by their index there.
public struct DailyLogRecords: Sendable, Equatable {
    /// One log. Timestamps are kept as `Date`'s own value (seconds since the reference date), so a
    /// log read back is the `DailyLog` that went in, to the bit.
    public struct Record: Sendable, Equatable {
        public var id: UUID
        /// Indices into `refs`.
        public var routine: UInt32
        public var set: UInt32
        /// `LocalDay.dayNumber`.
        public var day: Int32
        public var completed: Bool
        public var hasCompletedAt: Bool
        public var completedAt: Double
        public var createdAt: Double
        public var updatedAt: Double
        /// Index into `refs` of the look the completion showed; `Record.noLook` when none.
        public var look: UInt32 = Record.noLook

        public static let noLook = UInt32.max
        public var hasLook: Bool { look != Record.noLook }

        public var status: LogStatus { completed ? .completed : .undone }
        public var date: LocalDay { LocalDay(dayNumber: Int(day)) }
    }

    public private(set) var records: [Record] = []
    /// Every routine and set id the logs name, in order of first use.
    public private(set) var refs: [UUID] = []
    private var refIndex: [UUID: UInt32] = [:]
    // The last id looked up: consecutive logs mostly name the same set.
    private var lastRef: (id: UUID, index: UInt32)?

    public init() {}

    /// Makes room for `capacity` logs (a guess from the document size).
    public init(capacity: Int) { records.reserveCapacity(capacity) }

    public init(_ logs: [DailyLog]) {
        records.reserveCapacity(logs.count)
        for l in logs { append(l) }
    }

    public var count: Int { records.count }
    public var isEmpty: Bool { records.isEmpty }

    /// The index of `id` in `refs`, added when new.
    public mutating func ref(_ id: UUID) -> UInt32 {
        if let lastRef, lastRef.id == id { return lastRef.index }
        let index: UInt32
        if let known = refIndex[id] {
            index = known
        } else {
            index = UInt32(refs.count)
            refs.append(id)
            refIndex[id] = index
        }
        lastRef = (id, index)
        return index
    }

    public mutating func append(_ l: DailyLog) {
        let routine = ref(l.routineId), set = ref(l.routineSetId)
        var look: UInt32?
        if let id = l.lookId { look = ref(id) }
        append(id: l.id, day: Int32(truncatingIfNeeded: l.date.dayNumber), routine: routine, set: set, status: l.status,
               completedAt: l.completedAt, createdAt: l.createdAt, updatedAt: l.updatedAt, look: look)
    }

    /// Appends a log whose routine and set are already `ref`s.
    public mutating func append(id: UUID, day: Int32, routine: UInt32, set: UInt32, status: LogStatus,
                                completedAt: Date?, createdAt: Date, updatedAt: Date, look: UInt32? = nil) {
        records.append(Record(id: id, routine: routine, set: set, day: day, completed: status == .completed,
                              hasCompletedAt: completedAt != nil, completedAt: completedAt?.timeIntervalSinceReferenceDate ?? 0,
                              createdAt: createdAt.timeIntervalSinceReferenceDate, updatedAt: updatedAt.timeIntervalSinceReferenceDate,
                              look: look ?? Record.noLook))
    }

    /// The log at `index`, as a `DailyLog`.
    public subscript(index: Int) -> DailyLog { log(records[index]) }

    public func log(_ r: Record) -> DailyLog {
        DailyLog(id: r.id, date: r.date, routineId: refs[Int(r.routine)], routineSetId: refs[Int(r.set)], status: r.status,
                 completedAt: r.hasCompletedAt ? Date(timeIntervalSinceReferenceDate: r.completedAt) : nil,
                 createdAt: Date(timeIntervalSinceReferenceDate: r.createdAt),
                 updatedAt: Date(timeIntervalSinceReferenceDate: r.updatedAt),
                 lookId: r.hasLook ? refs[Int(r.look)] : nil)
    }

    /// Every log as a `DailyLog` (small data: tests, a phone backup's one child).
    public var logs: [DailyLog] { records.map(log) }

    /// Drops the logs, keeping nothing.
    public mutating func removeAll() {
        records = []
        refs = []
        refIndex = [:]
        lastRef = nil
    }

    /// The same logs in the same order, whatever order the refs were met in.
    public static func == (a: DailyLogRecords, b: DailyLogRecords) -> Bool {
        guard a.count == b.count else { return false }
        if a.refs == b.refs { return a.records == b.records }
        return a.logs == b.logs
    }
}
