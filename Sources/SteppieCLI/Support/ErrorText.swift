import SteppieCore
import SteppieStore
import SteppieBackup
import SteppieLocalization
import SteppieFiles
import SteppieService
import SteppieInput
import SteppieFeedback
import SteppieTLS
import Foundation

/// Turns error values into one line of text in the user's language.
enum ErrorText {
    static func usage(_ e: UsageError, _ t: Messages) -> String {
        let line: String
        switch e {
        case .unknownCommand(let c, let p): line = t("cli.error.unknownCommand", ["command": Validator.printable(c), "parent": (["steppie"] + p).joined(separator: " ")])
        case .missingCommand(let p): line = t("cli.error.missingCommand", ["parent": (["steppie"] + p).joined(separator: " ")])
        case .unknownOption(let o, _): line = t("cli.error.unknownOption", ["option": Validator.printable(o)])
        case .missingValue(let o): line = t("cli.error.missingValue", ["option": o])
        case .invalidChoice(let o, let v, let c): line = t("cli.error.invalidChoice", ["option": o, "value": Validator.printable(v), "choices": c.joined(separator: ", ")])
        case .repeatedOption(let o): line = t("cli.error.repeatedOption", ["option": Validator.printable(o)])
        case .unexpectedArgument(let a): line = t("cli.error.unexpectedArgument", ["argument": Validator.printable(a)])
        case .missingArgument(let a): line = t("cli.error.missingArgument", ["argument": a])
        case .notAllowed(let o, let v, let a): line = t("cli.error.notAllowed", ["option": o, "value": Validator.printable(v), "allowed": allowed(a, t)])
        case .invalidValue(let o, let v, let x): line = t("cli.error.invalidValue", ["option": o, "value": Validator.printable(v), "expected": x])
        case .refusedValue(let o, let v, let r): line = t("cli.error.refusedValue", ["option": o, "value": Validator.printable(v), "reason": r])
        case .refused(let o, let v, .expected(let key)):
            line = t("cli.error.invalidValue", ["option": o, "value": Validator.printable(v), "expected": t(key)])
        case .refused(let o, let v, .reason(let key, let arguments)):
            line = t("cli.error.refusedValue", ["option": o, "value": Validator.printable(v), "reason": t(key, arguments)])
        case .conflictingOptions(let a, let b): line = t("cli.error.conflictingOptions", ["first": a, "second": b])
        case .unusablePath(let o, let refusal): line = o + ": " + file(refusal, t)
        }
        return "steppie: " + line
    }

    static func runtime(_ error: any Error, _ t: Messages) -> String {
        "steppie: " + line(error, t)
    }

    /// A runtime error as one sentence, without the program name (for notices inside child mode).
    static func line(_ error: any Error, _ t: Messages) -> String {
        let line: String
        switch error {
        case let v as ContractViolation: line = violation(v, t)
        case let s as StoreError: line = store(s, t)
        case let e as GuardianEditError: line = guardianEdit(e, t)
        case let g as GuardianError: line = guardian(g, t)
        case let b as BackupError: line = backup(b, t)
        case let r as RecordingError: line = recording(r, t)
        case let s as SQLiteError: line = t("cli.error.database", ["reason": sqliteReason(s, t)])
        case let f as FeedbackError: line = feedback(f, t)
        case let f as FileRefusal: line = file(f, t)
        case let s as ServiceError: line = service(s, t)
        case let s as ServiceTrustRefusal: line = serviceTrust(s, t)
        case let e as TLSError: line = tls(e, t)
        case let s as ServiceFailure: line = serviceFailure(s, t)
        case let b as ButtonDeviceError: line = button(b.catalogKey, b.arguments, t)
        case let e as CatalogLoadError: line = t("cli.error.catalog", ["reason": e.description])
        case L10nError.unknownKey(let key): line = t("cli.error.unknownKey", ["key": key])
        // Only the error's type name: its description is English and would break a Korean sentence.
        default: line = t("cli.error.unexpected", ["kind": String(describing: type(of: error))])
        }
        return line
    }

    static func violation(_ v: ContractViolation, _ t: Messages) -> String {
        t("cli.error.invalid", ["field": v.field, "value": v.valueKey.map { t($0, v.arguments) } ?? Validator.printable(v.value),
                                "allowed": v.allowedKey.map { t($0, v.arguments) } ?? v.allowed])
    }

    static func store(_ e: StoreError, _ t: Messages) -> String {
        switch e {
        case .invalid(let v): return violation(v, t)
        case .sqlite(let s):
            if s.isReadOnly { return t("cli.error.readOnly", ["reason": sqliteReason(s, t)]) }
            if s.isBusy { return t("cli.error.busy", ["reason": sqliteReason(s, t)]) }
            if s.isConstraintViolation { return t("cli.error.constraint", ["reason": sqliteReason(s, t)]) }
            return t("cli.error.database", ["reason": sqliteReason(s, t)])
        case .newerSchema(let id): return t("cli.error.newerSchema", ["migration": id])
        case .childNotFound(let c): return t("cli.error.childNotFound", ["child": Validator.printable(c)])
        case .childAmbiguous(let names): return t("cli.error.childAmbiguous", ["children": names.map(Validator.printable).joined(separator: ", ")])
        case .childNameAmbiguous(let name, let children):
            return t("cli.error.childNameAmbiguous", ["child": Validator.printable(name), "children": children.joined(separator: ", ")])
        case .noChildren: return t("cli.error.noChildren")
        case .childNameTaken(let n): return t("cli.error.childNameTaken", ["child": Validator.printable(n)])
        case .setNotFound(let s): return t("cli.error.setNotFound", ["set": Validator.printable(s)])
        case .setNameAmbiguous(let name, let sets):
            return t("cli.error.setNameAmbiguous", ["set": Validator.printable(name), "sets": sets.joined(separator: ", ")])
        case .routineNotFound(let r): return t("cli.error.routineNotFound", ["routine": Validator.printable(r)])
        case .noActiveSet(let c): return t("cli.error.noActiveSet", ["child": c])
        case .notCurrent(let r, let c): return t("cli.error.notCurrent", ["routine": Validator.printable(r), "current": c.map(Validator.printable) ?? "-"])
        case .allDone: return t("cli.error.allDone")
        case .nothingToUndo: return t("cli.error.nothingToUndo")
        case .undoWindowPassed(let s): return t("cli.error.undoWindowPassed", ["seconds": String(s)])
        case .dayChanged: return t("cli.error.dayChanged")
        case .corruptRow(let table, let id, _): return t("cli.error.corruptRow", ["table": table, "id": id])
        case .fileSystem(let path, let reason): return t("cli.error.fileSystem", ["path": Validator.printable(path), "reason": reason])
        case .file(let f): return file(f, t)
        case .databaseMissing(let path): return t("cli.error.databaseMissing", ["path": Validator.printable(path)])
        case .foreignFile(let path): return t("cli.error.foreignFile", ["path": Validator.printable(path)])
        case .databaseReplaced(let path): return t("cli.error.databaseReplaced", ["path": Validator.printable(path)])
        case .buttonExists(let path, let id): return t("cli.error.buttonExists", ["path": Validator.printable(path), "id": id])
        case .buttonNotFound(let selector): return t("cli.error.buttonNotFound", ["button": Validator.printable(selector)])
        }
    }

    /// Why SQLite failed, in the user's language: SQLite's own message is English, so the primary
    /// result code picks a catalog sentence (a disk that is full, a read-only file, …).
    static func sqliteReason(_ s: SQLiteError, _ t: Messages) -> String {
        let known: [Int32: String] = [13: "file.errno.noSpace", 10: "file.errno.io", 8: "cli.error.sqlite.readOnly",
                                      3: "file.errno.denied", 23: "file.errno.denied", 5: "cli.error.sqlite.busy",
                                      6: "cli.error.sqlite.busy", 11: "cli.error.sqlite.corrupt", 26: "cli.error.sqlite.corrupt",
                                      14: "cli.error.sqlite.cantOpen", 19: "cli.error.sqlite.constraint"]
        return known[s.primaryCode].map { t($0) } ?? t("cli.error.sqlite.other", ["code": String(s.code)])
    }

    /// A feedback failure: which call or file, in the user's language (the libraries' own reasons are English).
    static func feedback(_ e: FeedbackError, _ t: Messages) -> String {
        switch e {
        case .speech(let call, let code): t("cli.feedback.error.speech", ["call": call, "code": String(code)])
        case .soundFile(let path, _): t("cli.feedback.error.soundFile", ["path": Validator.printable(path)])
        case .missingSound(let name, let directory): t("cli.feedback.error.missingSound", ["name": name, "path": Validator.printable(directory)])
        case .wavFile(let path, _): t("cli.feedback.error.wavFile", ["path": Validator.printable(path)])
        case .pulse(let call, _): t("cli.feedback.error.pulse", ["call": call])
        case .hapticDevice(let path, _), .noRumble(let path): t("cli.feedback.error.haptic", ["path": Validator.printable(path)])
        case .hapticLog(let path, _): t("cli.feedback.error.hapticLog", ["path": Validator.printable(path)])
        }
    }

    /// A refused path or a failed file operation.
    static func file(_ e: FileRefusal, _ t: Messages) -> String {
        switch e {
        case .notRegularFile(let path, let kind):
            return t("cli.error.notRegularFile", ["path": Validator.printable(path), "kind": t("file.kind." + kind.rawValue)])
        case .notDirectory(let path, let kind):
            return t("cli.error.notDirectory", ["path": Validator.printable(path), "kind": t("file.kind." + kind.rawValue)])
        case .missing(let path): return t("cli.error.fileMissing", ["path": Validator.printable(path)])
        case .system(let path, let operation, let code, _):
            return t("cli.error.fileSystem", ["path": Validator.printable(path), "reason": systemReason(operation, code, t)])
        }
    }

    /// Why a file operation failed, without the path (when the sentence names the target itself).
    static func reason(_ e: FileRefusal, _ t: Messages) -> String {
        if case .system(_, let operation, let code, _) = e { return systemReason(operation, code, t) }
        return file(e, t)
    }

    /// A system error in the user's language: the common ones by name, others by their number.
    static func systemReason(_ operation: String, _ code: Int32, _ t: Messages) -> String {
        let known: [Int32: String] = [ENOSPC: "noSpace", EPIPE: "brokenPipe", EACCES: "denied", EPERM: "denied",
                                      ENOENT: "missing", EROFS: "readOnly", EIO: "io", EDQUOT: "noSpace", EISDIR: "isDirectory",
                                      EADDRINUSE: "addressInUse", EADDRNOTAVAIL: "addressNotHere"]
        let reason = known[code].map { t("file.errno." + $0) } ?? t("file.errno.other", ["code": String(code)])
        return t("file.operation", ["operation": operation, "reason": reason])
    }

    /// A notice from the store, said once.
    static func notice(_ n: StoreNotice, _ t: Messages) -> String {
        switch n {
        case .permissionsTightened(let path, let from):
            return t("cli.notice.permissionsTightened", ["path": Validator.printable(path), "mode": String(from, radix: 8)])
        }
    }
}
