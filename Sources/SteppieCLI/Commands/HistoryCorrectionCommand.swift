import Foundation
import SteppieCore
import SteppieStore

/// `steppie history set DATE ROUTINE-ID done|not-done`: a guardian corrects a past day. The change
/// is recorded with when it was made (`Store.setDayEntry`); guardian mode is required when a PIN is set.
enum HistoryCorrectionCommand {
    struct Result: Encodable {
        let date: String
        let routineId: String
        let done: Bool
        let changed: Bool
        let previousStatus: String?
        let madeAt: String?
    }

    static func run(_ c: Context) throws -> Int32 {
        let inv = c.invocation
        let raw = inv.argument("DATE") ?? ""
        guard let day = LocalDay(raw) else { throw UsageError.notAllowed(option: "DATE", value: raw, allowed: .date) }
        let id = try Ids.parse(inv.argument("ROUTINE-ID"), argument: "ROUTINE-ID")
        let done = inv.argument("STATE") == "done"
        let store = try c.store()
        let child = try c.child()
        let change = try store.setDayEntry(childId: child.id, routineId: id, day: day, done: done, at: c.now)
        if c.json {
            var result = Result(date: day.description, routineId: id.lowercased, done: done, changed: false, previousStatus: nil, madeAt: nil)
            if case .changed(let correction) = change {
                result = Result(date: day.description, routineId: id.lowercased, done: done, changed: true,
                                previousStatus: correction.previousStatus?.rawValue,
                                madeAt: Timestamp.format(correction.madeAt, in: c.env.timeZone))
            }
            try c.printEncodable(result)
            return 0
        }
        let title = c.resolve(try store.routine(id: id).title)
        let key: String
        switch (change, done) {
        case (.changed, true): key = "cli.history.set.done"
        case (.changed, false): key = "cli.history.set.notDone"
        case (.unchanged, true): key = "cli.history.set.alreadyDone"
        case (.unchanged, false): key = "cli.history.set.alreadyNotDone"
        }
        c.console.print(c.text(key, ["title": title, "date": day.description]))
        return 0
    }
}
