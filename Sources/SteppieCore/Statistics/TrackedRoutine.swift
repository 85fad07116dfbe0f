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

    /// Creates a tracked routine from local days already computed in the device's time zone.
    public init(id: UUID, start: LocalDay, end: LocalDay? = nil, completionDays: some Sequence<LocalDay>,
                countsForChild: Bool = true) {
        self.id = id
        self.start = start
        self.end = end
        self.completionDays = Set(completionDays)
        self.countsForChild = countsForChild
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
        day >= start && day <= finalDay(reference: reference)
    }
}
