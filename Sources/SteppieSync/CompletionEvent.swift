/// A press, an undo or a guardian's correction of one routine on one day: an event that is never
/// changed or removed once made, so every completion reaches every device. The state of
/// (routine, day) is decided from all of them (`DayFold`), the same way everywhere.
package struct CompletionEvent: Hashable, Sendable, Codable {
    package enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// The child said done.
        case press
        /// The child took it back inside the undo window.
        case undo
        /// A guardian marked the day done (`history set … done`, the history page).
        case correctDone
        /// A guardian marked the day not done.
        case correctUndone

        package var leavesCompleted: Bool { self == .press || self == .correctDone }
        package var isCorrection: Bool { self == .correctDone || self == .correctUndone }
    }

    /// A UUID made where the event happened.
    package let id: String
    package let child: String
    package let routine: String
    package let set: String
    /// The local date where it was pressed (`YYYY-MM-DD`), never recomputed elsewhere.
    package let date: String
    package let kind: Kind
    /// The instant as the device wrote it (ISO 8601 with its offset).
    package let at: String
    package let stamp: HybridTimestamp
    /// What the child saw when pressing (title, icon): history keeps it.
    package let shownTitle: SyncValue?
    package let shownIcon: SyncValue?

    package init(id: String, child: String, routine: String, set: String, date: String, kind: Kind, at: String,
                stamp: HybridTimestamp, shownTitle: SyncValue? = nil, shownIcon: SyncValue? = nil) {
        self.id = id
        self.child = child
        self.routine = routine
        self.set = set
        self.date = date
        self.kind = kind
        self.at = at
        self.stamp = stamp
        self.shownTitle = shownTitle
        self.shownIcon = shownIcon
    }
}

/// The state of one routine on one day, decided from its events.
package struct DayEntry: Hashable, Sendable {
    package enum Status: String, Hashable, Sendable { case completed, undone }

    package let status: Status
    /// The instant of the event that left it completed (nil when undone).
    package let completedAt: String?
    /// The set the routine was in when the deciding event was made.
    package let set: String
    package let shownTitle: SyncValue?
    package let shownIcon: SyncValue?
    /// The press whose look `shownTitle` and `shownIcon` are (nil when no event is a press).
    package let shownBy: String?
    /// The corrections among the events, in order, each with the status it replaced.
    package let corrections: [Correction]

    package struct Correction: Hashable, Sendable {
        package let event: String
        package let done: Bool
        package let previous: Status?
        package let madeAt: String

        package init(event: String, done: Bool, previous: Status?, madeAt: String) {
            self.event = event
            self.done = done
            self.previous = previous
            self.madeAt = madeAt
        }
    }
}

/// Decides a day's entry from its events: they are taken in hybrid-timestamp order and the last
/// one decides (a press or a done correction leaves it completed at that event's instant, an undo
/// or a not-done correction leaves it undone). Every device holding the same events decides the
/// same entry, whatever order they arrived in.
package enum DayFold {
    package static func entry(_ events: some Sequence<CompletionEvent>) -> DayEntry? { decide(events) }

    /// The same rule, with a day of one event (most days: a press) decided without sorting.
    package static func entry(_ events: [CompletionEvent]) -> DayEntry? {
        guard events.count == 1 else { return decide(events) }
        let only = events[0]
        let completed = only.kind.leavesCompleted
        let shown = only.kind == .press ? only : nil
        let corrections = only.kind.isCorrection
            ? [DayEntry.Correction(event: only.id, done: only.kind == .correctDone, previous: nil, madeAt: only.at)] : []
        return DayEntry(status: completed ? .completed : .undone, completedAt: completed ? only.at : nil, set: only.set,
                        shownTitle: shown?.shownTitle, shownIcon: shown?.shownIcon, shownBy: shown?.id, corrections: corrections)
    }

    private static func decide(_ events: some Sequence<CompletionEvent>) -> DayEntry? {
        let ordered = events.sorted { $0.stamp < $1.stamp }
        guard let last = ordered.last else { return nil }
        var status: DayEntry.Status?
        var corrections: [DayEntry.Correction] = []
        for event in ordered {
            if event.kind.isCorrection {
                corrections.append(DayEntry.Correction(event: event.id, done: event.kind == .correctDone, previous: status, madeAt: event.at))
            }
            status = event.kind.leavesCompleted ? .completed : .undone
        }
        let completed = last.kind.leavesCompleted
        // What was shown is the last press's (a correction shows nothing to the child).
        let shown = ordered.last { $0.kind == .press }
        return DayEntry(status: completed ? .completed : .undone, completedAt: completed ? last.at : nil, set: last.set,
                        shownTitle: shown?.shownTitle, shownIcon: shown?.shownIcon, shownBy: shown?.id, corrections: corrections)
    }
}
