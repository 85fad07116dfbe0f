import Foundation

/// What the statistics need to know about one routine: its tracking period and its completion days,
/// all as local days of the device.
public struct TrackedRoutine: Hashable, Sendable, Identifiable {
    public let id: UUID
    /// The local day the routine was created: tracking starts here.
    public let start: LocalDay
    /// The local day tracking ended (soft delete or archive), nil while still tracked.
    public let end: LocalDay?
    /// Distinct local days with a completion (duplicates collapse).
    public let completionDays: Set<LocalDay>
    /// Whether the routine takes part in its child's aggregate (see `ChildStatistics`).
    public let countsForChild: Bool
    /// Runs of days on which the routine was deleted the whole day and later restored: not
    /// tracked (neither eligible nor breaking a streak) unless a completion was recorded that day.
    public let absences: [ClosedRange<LocalDay>]

    /// Creates a tracked routine from local days already computed in the device's time zone.
    public init(id: UUID, start: LocalDay, end: LocalDay? = nil, completionDays: some Sequence<LocalDay>,
                countsForChild: Bool = true, absences: [ClosedRange<LocalDay>] = []) {
        self.id = id
        self.start = start
        self.end = end
        self.completionDays = Set(completionDays)
        self.countsForChild = countsForChild
        self.absences = absences
    }

    /// The days a routine deleted at `deletedAt` and restored at `restoredAt` was away, in
    /// `timeZone`: the whole days between the two local days, both excluded (the deletion day and
    /// the restore day stay tracked, as the first and last days of any routine are). Nil when
    /// there is no whole day between them.
    public static func absence(deletedAt: Date, restoredAt: Date, in timeZone: TimeZone) -> ClosedRange<LocalDay>? {
        let first = LocalDay(deletedAt, in: timeZone).adding(days: 1)
        let last = LocalDay(restoredAt, in: timeZone).adding(days: -1)
        return first <= last ? first...last : nil
    }

    /// True when `day` falls in an absence and has no completion.
    public func isAbsent(on day: LocalDay) -> Bool {
        !absences.isEmpty && absences.contains { $0.contains(day) } && !completionDays.contains(day)
    }

    /// Creates a tracked routine from instants, each read as a local day in `timeZone`
    /// (`createdAt` → start, `deletedAt` → end, every `completedAt` → a completion day). DST-safe:
    /// an instant's local day never depends on the length of that day.
    public init(id: UUID, createdAt: Date, deletedAt: Date?, completedAt: some Sequence<Date>,
                in timeZone: TimeZone, countsForChild: Bool = true) {
        self.init(id: id, start: LocalDay(createdAt, in: timeZone),
                  end: deletedAt.map { LocalDay($0, in: timeZone) },
                  completionDays: completedAt.map { LocalDay($0, in: timeZone) },
                  countsForChild: countsForChild)
    }

    /// The last tracked day for `reference`: `min(reference, end)`.
    public func finalDay(reference: LocalDay) -> LocalDay {
        end.map { Swift.min($0, reference) } ?? reference
    }

    /// True when `day` lies in the tracking period as seen on `reference`.
    public func isTracked(on day: LocalDay, reference: LocalDay) -> Bool {
        day >= start && day <= finalDay(reference: reference) && !isAbsent(on: day)
    }
}
