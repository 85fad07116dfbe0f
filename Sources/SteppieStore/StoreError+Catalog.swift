import Foundation
import SteppieCore
import SteppieFiles

extension StoreError: CatalogDescribable {
    /// What the store refused, in the reader's words (`cli.error.*`).
    public var catalogMessage: CatalogMessage {
        switch self {
        case .invalid(let v): return v.catalogMessage
        case .sqlite(let s):
            let reason = CatalogMessage.Argument.message(s.reasonMessage)
            if s.isReadOnly { return CatalogMessage("cli.error.readOnly", ["reason": reason]) }
            if s.isBusy { return CatalogMessage("cli.error.busy", ["reason": reason]) }
            if s.isConstraintViolation { return CatalogMessage("cli.error.constraint", ["reason": reason]) }
            return CatalogMessage("cli.error.database", ["reason": reason])
        case .newerSchema(let id): return CatalogMessage("cli.error.newerSchema", ["migration": .detail(id)])
        case .childNotFound(let c): return CatalogMessage("cli.error.childNotFound", ["child": .text(Validator.printable(c))])
        case .childArchived(let c): return CatalogMessage("cli.error.childArchived", ["child": .text(Validator.printable(c))])
        case .childAmbiguous(let names):
            return CatalogMessage("cli.error.childAmbiguous", ["children": .text(names.map(Validator.printable).joined(separator: ", "))])
        case .childNameAmbiguous(let name, let children):
            return CatalogMessage("cli.error.childNameAmbiguous", ["child": .text(Validator.printable(name)),
                                                                   "children": .text(children.joined(separator: ", "))])
        case .noChildren: return CatalogMessage("cli.error.noChildren")
        case .childNameTaken(let n): return CatalogMessage("cli.error.childNameTaken", ["child": .text(Validator.printable(n))])
        case .setNotFound(let s): return CatalogMessage("cli.error.setNotFound", ["set": .text(Validator.printable(s))])
        case .setNameAmbiguous(let name, let sets):
            return CatalogMessage("cli.error.setNameAmbiguous", ["set": .text(Validator.printable(name)), "sets": .text(sets.joined(separator: ", "))])
        case .routineNotFound(let r): return CatalogMessage("cli.error.routineNotFound", ["routine": .text(Validator.printable(r))])
        case .noActiveSet(let c): return CatalogMessage("cli.error.noActiveSet", ["child": .text(c)])
        case .notCurrent(let r, let c):
            return CatalogMessage("cli.error.notCurrent", ["routine": .text(Validator.printable(r)), "current": .text(c.map(Validator.printable) ?? "-")])
        case .allDone: return CatalogMessage("cli.error.allDone")
        case .nothingToUndo: return CatalogMessage("cli.error.nothingToUndo")
        case .undoWindowPassed(let s): return CatalogMessage("cli.error.undoWindowPassed", ["seconds": .text(String(s))])
        case .dayChanged: return CatalogMessage("cli.error.dayChanged")
        case .corruptRow(let table, let id, _): return CatalogMessage("cli.error.corruptRow", ["table": .detail(table), "id": .detail(id)])
        case .fileSystem(let path, let reason):
            return CatalogMessage("cli.error.fileSystem", ["path": .detail(Validator.printable(path)), "reason": .detail(reason)])
        case .file(let f): return f.catalogMessage
        case .databaseMissing(let path): return CatalogMessage("cli.error.databaseMissing", ["path": .detail(Validator.printable(path))])
        case .foreignFile(let path): return CatalogMessage("cli.error.foreignFile", ["path": .detail(Validator.printable(path))])
        case .databaseReplaced(let path): return CatalogMessage("cli.error.databaseReplaced", ["path": .detail(Validator.printable(path))])
        case .buttonExists(let path, let id):
            return CatalogMessage("cli.error.buttonExists", ["path": .detail(Validator.printable(path)), "id": .text(id)])
        case .buttonNotFound(let selector): return CatalogMessage("cli.error.buttonNotFound", ["button": .text(Validator.printable(selector))])
        case .syncAlreadyOn: return CatalogMessage("sync.error.alreadyOn")
        case .syncOff: return CatalogMessage("sync.error.off")
        case .restoreWhileJoined: return CatalogMessage("sync.error.restoreWhileJoined")
        case .syncHubAhead(let ms): return CatalogMessage("sync.error.hubAhead", ["minutes": .text(String(ms / 60_000))])
        case .syncCopyFileRefused(let reason): return CatalogMessage("sync.error.copyFileRefused", ["reason": .detail(reason)])
        case .syncCopyFileBusy: return CatalogMessage("sync.error.copyFileBusy")
        }
    }

    /// For the log: SQLite's own message and SQL, a damaged row's reason.
    public var logMessage: CatalogMessage {
        switch self {
        case .sqlite(let s): s.logDetail(for: catalogMessage)
        case .corruptRow(_, _, let reason): catalogMessage.withLogDetail(reason)
        default: catalogMessage
        }
    }
}

extension SQLiteError: CatalogDescribable {
    /// `cli.error.database` with the reason by result code.
    public var catalogMessage: CatalogMessage { CatalogMessage("cli.error.database", ["reason": .message(reasonMessage)]) }

    public var logMessage: CatalogMessage { logDetail(for: catalogMessage) }

    /// Why SQLite failed, in the reader's words: SQLite's own message is English, so the primary
    /// result code picks a catalog sentence (a disk that is full, a read-only file, …).
    public var reasonMessage: CatalogMessage {
        let known: [Int32: String] = [13: "file.errno.noSpace", 10: "file.errno.io", 8: "cli.error.sqlite.readOnly",
                                      3: "file.errno.denied", 23: "file.errno.denied", 5: "cli.error.sqlite.busy",
                                      6: "cli.error.sqlite.busy", 11: "cli.error.sqlite.corrupt", 26: "cli.error.sqlite.corrupt",
                                      14: "cli.error.sqlite.cantOpen", 19: "cli.error.sqlite.constraint"]
        return known[primaryCode].map { CatalogMessage($0) } ?? CatalogMessage("cli.error.sqlite.other", ["code": .detail(String(code))])
    }

    /// `sentence` followed, for the device's log, by SQLite's result code, its own message and
    /// the SQL (`service.log.sqlite`, `service.log.sqliteIn`).
    public func logDetail(for sentence: CatalogMessage) -> CatalogMessage {
        var arguments: [String: CatalogMessage.Argument] = ["sentence": .message(sentence), "code": .detail(String(code)),
                                                            "message": .detail(message)]
        guard let sql else { return CatalogMessage("service.log.sqlite", arguments) }
        arguments["sql"] = .detail(sql)
        return CatalogMessage("service.log.sqliteIn", arguments)
    }
}

extension GuardianEditError: CatalogDescribable {
    /// A refused edit of a set, a past day or an archived child, in the reader's words.
    public var catalogMessage: CatalogMessage {
        switch self {
        case .activeSetCannotBeDeleted(_, let n): CatalogMessage("cli.error.activeSetCannotBeDeleted", ["name": .name(n)])
        case .emptySetCannotBeActivated(_, let n): CatalogMessage("cli.error.emptySetCannotBeActivated", ["name": .name(n)])
        case .dayInFuture(let day, let today):
            CatalogMessage("cli.error.dayInFuture", ["date": .text(day.description), "today": .text(today.description)])
        case .dayNotTracked(let routine, let day):
            CatalogMessage("cli.error.dayNotTracked", ["routine": .text(routine.lowercased), "date": .text(day.description)])
        case .routineOfAnotherChild(let routine, let child):
            CatalogMessage("cli.error.routineOfAnotherChild", ["routine": .text(routine.lowercased), "child": .text(Validator.printable(child))])
        case .childNotArchived(let child): CatalogMessage("cli.error.childNotArchived", ["child": .text(Validator.printable(child))])
        case .lastRoutineOfActiveSet(_, let set): CatalogMessage("cli.error.lastRoutineOfActiveSet", ["name": .name(set)])
        }
    }
}
