extension DayPlan {
    /// The plan with `log` recorded for its routine (a save the database confirmed).
    public func applying(_ log: DailyLog) -> DayPlan {
        guard log.date == day else { return self }
        return DayPlan(day: day, set: set, items: items.map { item in
            item.routine.id == log.routineId ? Item(routine: item.routine, log: log) : item
        })
    }

    public func item(_ routineId: UUID) -> Item? { items.first { $0.routine.id == routineId } }
}

import Foundation
