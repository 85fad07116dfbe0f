import Foundation

/// Everything child mode knows, as a value. The screen is drawn from it; the reducer changes it.
/// Codable so a screen attached to the service can draw the service's state (docs/service.md).
public struct ChildModeState: Equatable, Sendable, Codable {
    /// The device's zone: decides which local day an instant belongs to.
    public let timeZone: TimeZone
    /// The child's undo window, in seconds (3, 5 or 10).
    public var undoDurationSeconds: Int
    /// Minutes before a scheduled time at which reminders are spoken.
    public var leadTimes: [Int]
    /// Quiet hours: no reminders from `quietStart` until `quietEnd`.
    public var quietStart: LocalTime?
    public var quietEnd: LocalTime?

    /// The local day child mode is showing.
    public var day: LocalDay
    /// What the database says about that day (never optimistic).
    public var plan: DayPlan
    /// The routine on screen: the current one, or the one just completed while its undo window is open.
    public var focus: UUID?
    /// The open undo window after a successful completion.
    public var undo: UndoWindow?
    /// A save the runtime is performing; presses wait for it.
    public var saving: PendingSave?
    /// The last instant the reducer saw, so reminders fire once when their moment is crossed.
    public var lastSeen: Date
    /// Something to show briefly (undo refused, save failed).
    public var notice: Notice?

    public struct UndoWindow: Equatable, Sendable, Codable {
        public let routineId: UUID
        public let logId: UUID
        public let completedAt: Date
        public let deadline: Date
    }

    public enum PendingSave: Equatable, Sendable, Codable {
        case completion(routineId: UUID, at: Date)
        case undo(routineId: UUID, logId: UUID, at: Date)

        public var routineId: UUID {
            switch self { case .completion(let id, _), .undo(let id, _, _): id }
        }
    }

    public enum Notice: Equatable, Sendable, Codable {
        case undoRefused
        case saveFailed
        case undoFailed
    }

    public init(timeZone: TimeZone, profile: FeedbackProfile, plan: DayPlan, now: Date) {
        self.timeZone = timeZone
        self.undoDurationSeconds = profile.undoDurationSeconds
        self.leadTimes = profile.notificationLeadTimes
        self.quietStart = profile.quietHoursStart
        self.quietEnd = profile.quietHoursEnd
        self.day = plan.day
        self.plan = plan
        self.focus = nil
        self.undo = nil
        self.saving = nil
        self.lastSeen = now
        self.notice = nil
    }

    // MARK: What the screen shows

    /// Before the set's daily start time: a waiting view instead of the first activity.
    public func isWaiting(at now: Date) -> Bool {
        guard let start = plan.set?.startTime, plan.completedCount == 0 else { return false }
        return now < day.instant(at: start, in: timeZone)
    }

    /// Completed count as the child sees it: the database plus a completion being saved.
    public var shownCompleted: Int {
        if case .completion = saving { return plan.completedCount + 1 }
        return plan.completedCount
    }

    public var isAllDone: Bool { plan.isAllDone && saving == nil }

    /// Seconds left in the undo window at `now` (rounded up), or nil when no window is open.
    public func undoSecondsLeft(at now: Date) -> Int? {
        guard let undo else { return nil }
        return max(0, Int(undo.deadline.timeIntervalSince(now).rounded(.up)))
    }
}
