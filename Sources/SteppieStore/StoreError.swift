import SteppieCore

/// What the store refuses, as values a front end can translate into the user's language.
public enum StoreError: Error, Equatable, Sendable {
    case invalid(ContractViolation)
    case sqlite(SQLiteError)
    case newerSchema(migrationId: String)
    case childNotFound(String)
    case childAmbiguous([String])
    /// `--child NAME` matches several children whose names fold alike (each listed with its id).
    case childNameAmbiguous(name: String, children: [String])
    case noChildren
    case childNameTaken(String)
    case setNotFound(String)
    case routineNotFound(String)
    case noActiveSet(child: String)
    case notCurrent(routine: String, current: String?)
    case allDone
    case nothingToUndo
    case undoWindowPassed(seconds: Int)
    case dayChanged
    case corruptRow(table: String, id: String, reason: String)
    case fileSystem(path: String, reason: String)
}
