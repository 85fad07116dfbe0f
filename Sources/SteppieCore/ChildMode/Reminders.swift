import Foundation

/// Advance notices before scheduled activities.
public enum Reminders {
    public struct Due: Equatable, Sendable {
        public let routineId: UUID
        public let minutes: Int
        public let at: Date
    }

    /// Reminders whose moment falls in (from, to]: for each not-yet-completed routine with a
    /// scheduled time and each lead time, `scheduledTime − lead`, skipped inside quiet hours.
    public static func due(in state: ChildModeState, from: Date, to: Date) -> [Due] {
        guard to > from else { return [] }
        var out: [Due] = []
        for item in state.plan.items where !item.isCompleted {
            guard let time = item.routine.scheduledTime else { continue }
            let scheduled = state.day.instant(at: time, in: state.timeZone)
            for lead in state.leadTimes.sorted(by: >) {
                let at = scheduled.addingTimeInterval(-Double(lead) * 60)
                guard at > from, at <= to, !isQuiet(at, state) else { continue }
                out.append(Due(routineId: item.routine.id, minutes: lead, at: at))
            }
        }
        return out.sorted { $0.at < $1.at }
    }

    static func isQuiet(_ instant: Date, _ state: ChildModeState) -> Bool {
        guard let start = state.quietStart, let end = state.quietEnd else { return false }
        return LocalTime(instant, in: state.timeZone).isInside(from: start, to: end)
    }
}
