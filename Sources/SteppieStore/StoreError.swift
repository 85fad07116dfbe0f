import SteppieCore
import SteppieFiles

/// What the store refuses, as values a front end can translate into the user's language.
public enum StoreError: Error, Equatable, Sendable {
    case invalid(ContractViolation)
    case sqlite(SQLiteError)
    case newerSchema(migrationId: String)
    case childNotFound(String)
    /// The name (or id) is an archived child's: said so, with the way back, not "no child named".
    case childArchived(String)
    case childAmbiguous([String])
    /// `--child NAME` matches several children whose names fold alike (each listed with its id).
    case childNameAmbiguous(name: String, children: [String])
    case noChildren
    case childNameTaken(String)
    case setNotFound(String)
    /// A set named by its name matches several of the child's sets (each listed by id).
    case setNameAmbiguous(name: String, sets: [String])
    case routineNotFound(String)
    case noActiveSet(child: String)
    case notCurrent(routine: String, current: String?)
    case allDone
    case nothingToUndo
    case undoWindowPassed(seconds: Int)
    case dayChanged
    case corruptRow(table: String, id: String, reason: String)
    case fileSystem(path: String, reason: String)
    /// A file operation around the database was refused (not a regular file, permissions).
    case file(FileRefusal)
    /// A command that only looks found no database there (it never creates one).
    case databaseMissing(path: String)
    /// The file is not a Steppie database (another program's SQLite file, or not SQLite at all):
    /// refused untouched rather than initialised over.
    case foreignFile(path: String)
    /// The database file was replaced, moved or deleted, or its WAL deleted, while this process
    /// had it open: a write now would vanish, so it is refused.
    case databaseReplaced(path: String)
    /// A button is already stored for this device at that path (its id given).
    case buttonExists(path: String, id: String)
    /// No button stored for this device has that id or path.
    case buttonNotFound(String)
    /// This database already syncs (as a device or as the hub): leave first.
    case syncAlreadyOn
    /// This database does not sync (join a hub, or serve as one, first).
    case syncOff
    /// A restore on a device joined to a hub: it would overwrite the newer data of the other
    /// devices without a trace (docs/sync.md). Leave the hub first.
    case restoreWhileJoined
    /// The hub sent stamps this far ahead of this device's clock (more than twice the allowed
    /// offset): a broken hub, or this device's clock far behind. Nothing was applied.
    case syncHubAhead(milliseconds: Int64)
    /// A fresh copy's file from the hub is not one this device can take (another format, other
    /// children or cursor than its reply said, a value a table refuses). Nothing was applied; the
    /// copy is asked for again.
    case syncCopyFileRefused(reason: String)
    /// Another Steppie process of this device (the service, or a `sync now`) is fetching the same
    /// copy file now: this one leaves it alone (two writers would spoil it) and asks again later.
    case syncCopyFileBusy
}

/// Something the store did that a front end should tell the user, without failing.
public enum StoreNotice: Equatable, Sendable {
    /// A file or folder readable by others was made owner-only; `from` is its old mode.
    case permissionsTightened(path: String, from: UInt32)
}
