import Foundation
import SteppieCore

/// What the store refuses in a guardian's edits of sets, past days and archived children, as
/// values a front end (the command line, the guardian pages) says in the user's language.
/// Every refusal leaves the database unchanged.
public enum GuardianEditError: Error, Equatable, Sendable {
    /// The child's active set cannot be deleted; another set must be activated first.
    case activeSetCannotBeDeleted(setId: UUID, name: LocalizedText)
    /// A set without a visible routine (active and not deleted) cannot become the active set
    /// (`setId` is nil for a set refused as it was being created with `activate`).
    case emptySetCannotBeActivated(setId: UUID?, name: LocalizedText)
    /// A day after today cannot be corrected.
    case dayInFuture(day: LocalDay, today: LocalDay)
    /// The routine was not part of the child's day then (before it was created, after it was
    /// deleted, or while it was deleted): there is no entry to correct.
    case dayNotTracked(routineId: UUID, day: LocalDay)
    /// The routine belongs to another child than the one named.
    case routineOfAnotherChild(routineId: UUID, child: String)
    /// The last routine the child sees in their active set cannot be deleted or turned off: the
    /// active set would be empty (another set must be activated, or a routine added, first).
    case lastRoutineOfActiveSet(routineId: UUID, set: LocalizedText)
    /// The child is not archived (for `unarchiveChild`).
    case childNotArchived(name: String)
}
