import Foundation
import SteppieBackup
import SteppieFiles
import SteppieStore

/// Failures the guardian cannot fix from a form (a full disk, a database that refuses, a damaged
/// archive) as the pages say them: the kind of thing that went wrong in the guardian's words,
/// never a server path, SQLite's message or a Swift value, since the pages are also served to
/// the home network (issue 24, class 10). The whole value goes to the service's log instead.
extension GuardianWeb.Request {
    /// `error` in the guardian's words (what is wrong with an archive, or what failed on the
    /// device); its description goes to the service's log.
    func failureReason(_ error: any Error) -> String {
        log(error)
        if let e = error as? BackupError, let (key, arguments) = GuardianFailureText.damage(e) {
            return t("web.backup.damaged", ["detail": t(key, arguments)])
        }
        let (key, arguments) = GuardianFailureText.reason(error)
        return t(key, arguments)
    }

    private func log(_ error: any Error) {
        let page = web.method + " /guardian/" + web.path.dropFirst().joined(separator: "/")
        config.report(localizer.text("service.log.pageFailure", locale: config.defaultLocale,
                                     args: ["page": page, "detail": String(describing: error)]))
    }
}

/// The catalog keys of failures by kind (`web.failure.*`, `web.backup.why.*`).
enum GuardianFailureText {
    /// A failure of the device: its files, its database, or something unforeseen.
    static func reason(_ error: any Error) -> (String, [String: String]) {
        switch error {
        case let e as FileRefusal: return (file(e), [:])
        case let e as StoreError: return (store(e), [:])
        case let e as SQLiteError: return (sqlite(e), [:])
        case let e as BackupError:
            switch e {
            // The archive writer keeps only errno's text: a full disk is recognised by it.
            case .fileSystem(_, let reason): return (reason.contains(String(cString: strerror(ENOSPC))) ? "web.failure.noSpace" : "web.failure.files", [:])
            case .notRegularFile, .crypto: return ("web.failure.files", [:])
            case .store(let s): return (store(s), [:])
            case .restoreFailed: return ("web.failure.restoreFailed", [:])
            case .rollbackFailed: return ("web.failure.rollbackFailed", [:])
            default: return ("web.failure.unknown", [:])
            }
        default: return ("web.failure.unknown", [:])
        }
    }

    static func file(_ e: FileRefusal) -> String {
        guard case .system(_, _, let code, _) = e else { return "web.failure.files" }
        switch code {
        case ENOSPC, EDQUOT: return "web.failure.noSpace"
        case EACCES, EPERM, EROFS: return "web.failure.denied"
        default: return "web.failure.files"
        }
    }

    static func store(_ e: StoreError) -> String {
        switch e {
        case .sqlite(let s): return sqlite(s)
        case .file(let f): return file(f)
        case .fileSystem: return "web.failure.files"
        default: return "web.failure.store"
        }
    }

    static func sqlite(_ e: SQLiteError) -> String {
        if e.primaryCode == 13 { return "web.failure.noSpace" }   // SQLITE_FULL (SQLite's C names stay in the store)
        if e.isBusy { return "web.failure.busy" }
        if e.isReadOnly { return "web.failure.denied" }
        return "web.failure.store"
    }

    /// What is wrong with an archive itself, in a few words without names or paths; nil when the
    /// archive is fine and the device failed.
    static func damage(_ e: BackupError) -> (String, [String: String])? {
        switch e {
        case .notAZip, .zip: return ("web.backup.why.notZip", [:])
        case .unsafeEntryName, .unexpectedEntry, .duplicateEntry, .missingEntry, .tooManyEntries:
            return ("web.backup.why.entries", [:])
        case .entryTooLarge, .compressionRatioTooHigh, .totalTooLarge, .entrySizeMismatch, .jsonTooDeep, .jsonStringTooLong,
             .unknownFieldTooLarge, .dataStructureTooLarge, .tooManyRecords:
            return ("web.backup.why.tooLarge", [:])
        case .entryUnreadable, .checksumMismatch: return ("web.backup.why.unreadable", [:])
        case .notAnImage: return ("web.backup.why.notAnImage", [:])
        case .imageTooLarge:
            return ("web.backup.why.imageTooLarge", ["side": String(PhotoContent.maxSide), "megapixels": String(PhotoContent.maxPixels / 1_000_000)])
        case .manifestInvalid, .wrongApp, .unsupportedSchemaVersion, .unsupportedPlatform, .unsupportedChecksumAlgorithm:
            return ("web.backup.why.otherApp", [:])
        case .dataInvalid, .duplicateId, .duplicateLog, .danglingReference, .logSetMismatch, .dataWithoutSets, .contract, .duplicateChildName:
            return ("web.backup.why.data", [:])
        case .cancelled: return ("web.backup.why.changed", [:])
        case .crypto, .fileSystem, .notRegularFile, .childRequired, .childForDeviceBackup, .store, .restoreFailed, .rollbackFailed:
            return nil
        }
    }
}
