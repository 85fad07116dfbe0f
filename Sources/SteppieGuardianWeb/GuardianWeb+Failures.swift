import Foundation
import SteppieBackup
import SteppieCore
import SteppieFiles
import SteppieStore

/// Failures the guardian cannot fix from a form (a full disk, a database that refuses, a damaged
/// archive) as the pages say them: the kind of thing that went wrong in the guardian's words,
/// never a server path, SQLite's message or a Swift value, since the pages are also served to
/// the home network (issue 24, class 10). The whole value goes to the service's log instead.
extension GuardianWeb.Request {
    /// `error` in the guardian's words (what is wrong with an archive, or what failed on the
    /// device), said in the page's language by the one renderer of catalog messages; the error
    /// itself goes to the service's log, in the device's language.
    func failureReason(_ error: any Error) -> String {
        log(error)
        return say(GuardianFailureText.message(error))
    }

    /// A catalog message in the page's language (`CatalogRenderer`).
    func say(_ message: CatalogMessage) -> String {
        localizer.text(message, locale: locale)
    }

    /// The error for the service's log, in the device's language, with the detail only the log
    /// keeps (paths, SQLite's own message and SQL) as arguments of its catalog sentences.
    private func log(_ error: any Error) {
        let page = web.method + " /guardian/" + web.path.dropFirst().joined(separator: "/")
        config.report(localizer.text(CatalogMessage("service.log.pageFailure", ["page": .detail(page), "detail": .message(.log(error))]),
                                     locale: config.defaultLocale))
    }
}

/// Failures as the pages say them: by kind for the device's files, its database and archives
/// (`web.failure.*`, `web.backup.why.*`); any other error in its own words (its `catalogMessage`,
/// the command line's sentence) when those show nothing of the server.
enum GuardianFailureText {
    /// `error` as the pages say it: what is wrong with an archive (`web.backup.damaged`), else
    /// what failed on the device.
    static func message(_ error: any Error) -> CatalogMessage {
        if let e = error as? BackupError, let (key, arguments) = damage(e) {
            return CatalogMessage("web.backup.damaged", ["detail": .message(CatalogMessage(key, text: arguments))])
        }
        return reason(error)
    }

    /// A failure of the device: its files, its database, or something else.
    static func reason(_ error: any Error) -> CatalogMessage {
        switch error {
        case let e as FileRefusal: return CatalogMessage(file(e))
        case let e as StoreError: return store(e).map { CatalogMessage($0) } ?? own(e, else: "web.failure.store")
        case let e as SQLiteError: return CatalogMessage(sqlite(e))
        case let e as BackupError:
            switch e {
            // The archive writer keeps only errno's text: a full disk is recognised by it.
            case .fileSystem(_, let reason): return CatalogMessage(reason.contains(String(cString: strerror(ENOSPC))) ? "web.failure.noSpace" : "web.failure.files")
            case .notRegularFile, .crypto: return CatalogMessage("web.failure.files")
            case .store(let s): return store(s).map { CatalogMessage($0) } ?? CatalogMessage("web.failure.store")
            case .restoreFailed: return CatalogMessage("web.failure.restoreFailed")
            case .rollbackFailed: return CatalogMessage("web.failure.rollbackFailed")
            default: return CatalogMessage("web.failure.unknown")
            }
        default: return own(error, else: "web.failure.unknown")
        }
    }

    /// The error's own sentence (`catalogMessage`, as the command line says it) when it carries
    /// nothing of the server (`revealsDetail`: a path, a code, a library's words), else `key`.
    static func own(_ error: any Error, else key: String) -> CatalogMessage {
        guard let e = error as? any CatalogDescribable, !e.catalogMessage.revealsDetail else { return CatalogMessage(key) }
        return e.catalogMessage
    }

    static func file(_ e: FileRefusal) -> String {
        guard case .system(_, _, let code, _) = e else { return "web.failure.files" }
        switch code {
        case ENOSPC, EDQUOT: return "web.failure.noSpace"
        case EACCES, EPERM, EROFS: return "web.failure.denied"
        default: return "web.failure.files"
        }
    }

    /// The kind of a store failure of the device's files or database; nil for a refusal of
    /// another kind (no active set, nothing to undo …).
    static func store(_ e: StoreError) -> String? {
        switch e {
        case .sqlite(let s): return sqlite(s)
        case .file(let f): return file(f)
        case .fileSystem: return "web.failure.files"
        default: return nil
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
        case .entryUnreadable, .checksumMismatch, .photoHashMismatch: return ("web.backup.why.unreadable", [:])
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
