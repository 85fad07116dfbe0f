import SteppieCore
import SteppieFiles
import SteppieStore

extension BackupError: CatalogDescribable {
    /// What is wrong with an archive, or what failed writing or restoring one, in the reader's
    /// words (`cli.backup.error.*`). Entry names, paths and library codes are detail: the guardian
    /// pages say these in their own few words (`web.backup.why.*`).
    public var catalogMessage: CatalogMessage {
        typealias M = CatalogMessage
        func d(_ s: String) -> M.Argument { .detail(s) }
        func n<I: BinaryInteger>(_ v: I) -> M.Argument { .text(String(v)) }
        switch self {
        case .notAZip(let path, let reason): return M("cli.backup.error.notAZip", ["path": d(path), "reason": d(reason)])
        case .zip(let operation, let code, let message):
            return M("cli.backup.error.zip", ["operation": d(operation), "code": d(String(code)), "reason": d(message)])
        case .crypto(let operation, let code):
            return M("cli.backup.error.zip", ["operation": d(operation), "code": d(String(code)), "reason": d("libsodium")])
        case .fileSystem(let path, let reason): return M("cli.error.fileSystem", ["path": d(path), "reason": d(reason)])
        case .notRegularFile(let path, let kind):
            return M("cli.backup.error.notRegularFile", ["path": d(Validator.printable(path)), "kind": .message(M("cli.backup.kind." + kind.rawValue))])
        case .unsafeEntryName(let name): return M("cli.backup.error.unsafeEntry", ["name": d(name)])
        case .unexpectedEntry(let name): return M("cli.backup.error.unexpectedEntry", ["name": d(name)])
        case .duplicateEntry(let name): return M("cli.backup.error.duplicateEntry", ["name": d(name)])
        case .missingEntry(let name): return M("cli.backup.error.missingEntry", ["name": d(name)])
        case .entryTooLarge(let name, let size, let limit):
            return M("cli.backup.error.tooLarge", ["name": d(name), "size": n(size), "limit": n(limit)])
        case .compressionRatioTooHigh(let name, let u, let c):
            return M("cli.backup.error.ratio", ["name": d(name), "uncompressed": n(u), "compressed": n(c)])
        case .entrySizeMismatch(let name, let declared): return M("cli.backup.error.sizeMismatch", ["name": d(name), "size": n(declared)])
        case .entryUnreadable(let name, let reason): return M("cli.backup.error.unreadable", ["name": d(name), "reason": d(reason)])
        case .tooManyEntries(let count, let limit): return M("cli.backup.error.tooMany", ["count": n(count), "limit": n(limit)])
        case .totalTooLarge(let size, let limit): return M("cli.backup.error.totalTooLarge", ["size": n(size), "limit": n(limit)])
        case .notAnImage(let name): return M("cli.backup.error.notAnImage", ["name": d(name)])
        case .photoHashMismatch(let name, let expected, let actual):
            return M("cli.backup.error.photoHashMismatch", ["name": d(name), "expected": d(expected), "actual": d(actual)])
        case .imageTooLarge(let name, let width, let height):
            return M("cli.backup.error.imageTooLarge", ["name": d(name), "width": n(width), "height": n(height),
                                                        "side": n(PhotoContent.maxSide), "megapixels": n(PhotoContent.maxPixels / 1_000_000)])
        case .jsonTooDeep(let name, let limit): return M("cli.backup.error.jsonTooDeep", ["name": d(name), "limit": n(limit)])
        case .jsonStringTooLong(let name, let offset, let limit):
            return M("cli.backup.error.jsonStringTooLong", ["name": d(name), "offset": n(offset), "limit": n(limit)])
        case .unknownFieldTooLarge(let name, let field, let limit):
            return M("cli.backup.error.unknownFieldTooLarge", ["name": d(name), "field": d(field), "limit": n(limit)])
        case .dataStructureTooLarge(let limit): return M("cli.backup.error.dataStructureTooLarge", ["limit": n(limit)])
        case .tooManyRecords(let kind, let limit):
            return M("cli.backup.error.tooManyRecords", ["kind": .message(M("cli.backup.records." + kind.rawValue)), "limit": n(limit)])
        case .manifestInvalid(let field, let reason): return M("cli.backup.error.manifest", ["field": d(field), "reason": d(reason)])
        case .wrongApp(let app): return M("cli.backup.error.wrongApp", ["value": d(app)])
        case .unsupportedSchemaVersion(let v): return M("cli.backup.error.schema", ["value": d(String(v))])
        case .unsupportedPlatform(let p): return M("cli.backup.error.platform", ["value": d(p)])
        case .unsupportedChecksumAlgorithm(let a): return M("cli.backup.error.algorithm", ["value": d(a)])
        case .checksumMismatch(let expected, let actual): return M("cli.backup.error.checksum", ["expected": d(expected), "actual": d(actual)])
        case .dataInvalid(let path, let reason): return M("cli.backup.error.data", ["field": d(path), "reason": d(reason)])
        case .duplicateId(let entity, let id): return M("cli.backup.error.duplicateId", ["entity": d(entity), "id": d(id)])
        case .duplicateLog(let date, let routine): return M("cli.backup.error.duplicateLog", ["date": d(date), "id": d(routine)])
        case .danglingReference(let entity, let id, let field, let target):
            return M("cli.backup.error.dangling", ["entity": d(entity), "id": d(id), "field": d(field), "target": d(target)])
        case .logSetMismatch(let id): return M("cli.backup.error.logSet", ["id": d(id)])
        case .dataWithoutSets: return M("cli.backup.error.noSets")
        case .contract(let entity, let id, let v):
            return M("cli.backup.error.contract", ["entity": d(entity), "id": d(id)]).then(v.catalogMessage)
        case .duplicateChildName(let name): return M("cli.error.childNameTaken", ["child": .text(name)])
        case .cancelled: return M("cli.backup.error.cancelled")
        case .childRequired(let children): return M("cli.backup.error.childRequired", ["children": .text(children.joined(separator: ", "))])
        case .childForDeviceBackup: return M("cli.backup.error.childForDeviceBackup")
        case .store(let s): return s.catalogMessage
        case .restoreFailed(let step, let reason): return M("cli.backup.error.restoreFailed", ["step": d(step.rawValue), "reason": d(reason)])
        case .rollbackFailed(let step, let reason, let rollback):
            return M("cli.backup.error.rollbackFailed", ["step": d(step.rawValue), "reason": d(reason), "rollback": d(rollback)])
        }
    }

    /// For the log: a store failure's SQLite detail.
    public var logMessage: CatalogMessage {
        if case .store(let s) = self { return s.logMessage }
        return catalogMessage
    }
}
