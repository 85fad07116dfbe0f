import Foundation
import SteppieCore
import SteppieStore

/// What the child-mode runtime needs from the database. `Store` is the live one; tests wrap it
/// to inject failed saves without touching the file.
public protocol ChildModeStore: AnyObject {
    var timeZone: TimeZone { get }
    func today(childId: UUID, day: LocalDay) throws -> DayPlan
    func complete(childId: UUID, routineId: UUID?, day: LocalDay, at now: Date) throws -> DailyLog
    func undoCompletion(logId: UUID, day: LocalDay, at now: Date, windowSeconds: Int) throws -> DailyLog
    func child(id: UUID) throws -> Child
    func resolveChild(_ selector: String?) throws -> Child
    func children(includeArchived: Bool) throws -> [Child]
    /// Changes whenever another connection commits (SQLite's data_version).
    func dataVersion() throws -> Int
    /// Throws when the database file was replaced or its WAL deleted under us.
    func checkFileIdentity() throws
}

extension Store: ChildModeStore {}
