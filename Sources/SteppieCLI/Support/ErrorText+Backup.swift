import SteppieBackup
import SteppieCore

extension ErrorText {
    static func backup(_ e: BackupError, _ t: Messages) -> String {
        switch e {
        case .notAZip(let path, let reason): return t("cli.backup.error.notAZip", ["path": path, "reason": reason])
        case .zip(let operation, let code, let message):
            return t("cli.backup.error.zip", ["operation": operation, "code": String(code), "reason": message])
        case .crypto(let operation, let code): return t("cli.backup.error.zip", ["operation": operation, "code": String(code), "reason": "libsodium"])
        case .fileSystem(let path, let reason): return t("cli.error.fileSystem", ["path": path, "reason": reason])
        case .notRegularFile(let path, let kind):
            return t("cli.backup.error.notRegularFile", ["path": Validator.printable(path), "kind": t("cli.backup.kind." + kind.rawValue)])
        case .unsafeEntryName(let name): return t("cli.backup.error.unsafeEntry", ["name": name])
        case .unexpectedEntry(let name): return t("cli.backup.error.unexpectedEntry", ["name": name])
        case .duplicateEntry(let name): return t("cli.backup.error.duplicateEntry", ["name": name])
        case .missingEntry(let name): return t("cli.backup.error.missingEntry", ["name": name])
        case .entryTooLarge(let name, let size, let limit):
            return t("cli.backup.error.tooLarge", ["name": name, "size": String(size), "limit": String(limit)])
        case .compressionRatioTooHigh(let name, let u, let c):
            return t("cli.backup.error.ratio", ["name": name, "uncompressed": String(u), "compressed": String(c)])
        case .entrySizeMismatch(let name, let declared): return t("cli.backup.error.sizeMismatch", ["name": name, "size": String(declared)])
        case .entryUnreadable(let name, let reason): return t("cli.backup.error.unreadable", ["name": name, "reason": reason])
        case .tooManyEntries(let count, let limit): return t("cli.backup.error.tooMany", ["count": String(count), "limit": String(limit)])
        case .totalTooLarge(let size, let limit): return t("cli.backup.error.totalTooLarge", ["size": String(size), "limit": String(limit)])
        case .notAnImage(let name): return t("cli.backup.error.notAnImage", ["name": name])
        case .imageTooLarge(let name, let width, let height):
            return t("cli.backup.error.imageTooLarge", ["name": name, "width": String(width), "height": String(height),
                                                        "side": String(PhotoContent.maxSide), "megapixels": String(PhotoContent.maxPixels / 1_000_000)])
        case .jsonTooDeep(let name, let limit): return t("cli.backup.error.jsonTooDeep", ["name": name, "limit": String(limit)])
        case .jsonStringTooLong(let name, let offset, let limit):
            return t("cli.backup.error.jsonStringTooLong", ["name": name, "offset": String(offset), "limit": String(limit)])
        case .unknownFieldTooLarge(let name, let field, let limit):
            return t("cli.backup.error.unknownFieldTooLarge", ["name": name, "field": field, "limit": String(limit)])
        case .dataStructureTooLarge(let limit): return t("cli.backup.error.dataStructureTooLarge", ["limit": String(limit)])
        case .tooManyRecords(let kind, let limit):
            return t("cli.backup.error.tooManyRecords", ["kind": t("cli.backup.records." + kind.rawValue), "limit": String(limit)])
        case .manifestInvalid(let field, let reason): return t("cli.backup.error.manifest", ["field": field, "reason": reason])
        case .wrongApp(let app): return t("cli.backup.error.wrongApp", ["value": app])
        case .unsupportedSchemaVersion(let v): return t("cli.backup.error.schema", ["value": String(v)])
        case .unsupportedPlatform(let p): return t("cli.backup.error.platform", ["value": p])
        case .unsupportedChecksumAlgorithm(let a): return t("cli.backup.error.algorithm", ["value": a])
        case .checksumMismatch(let expected, let actual): return t("cli.backup.error.checksum", ["expected": expected, "actual": actual])
        case .dataInvalid(let path, let reason): return t("cli.backup.error.data", ["field": path, "reason": reason])
        case .duplicateId(let entity, let id): return t("cli.backup.error.duplicateId", ["entity": entity, "id": id])
        case .duplicateLog(let date, let routine): return t("cli.backup.error.duplicateLog", ["date": date, "id": routine])
        case .danglingReference(let entity, let id, let field, let target):
            return t("cli.backup.error.dangling", ["entity": entity, "id": id, "field": field, "target": target])
        case .logSetMismatch(let id): return t("cli.backup.error.logSet", ["id": id])
        case .dataWithoutSets: return t("cli.backup.error.noSets")
        case .contract(let entity, let id, let v): return t("cli.backup.error.contract", ["entity": entity, "id": id]) + " " + violation(v, t)
        case .duplicateChildName(let name): return t("cli.error.childNameTaken", ["child": name])
        case .cancelled: return t("cli.backup.error.cancelled")
        case .childRequired(let children): return t("cli.backup.error.childRequired", ["children": children.joined(separator: ", ")])
        case .childForDeviceBackup: return t("cli.backup.error.childForDeviceBackup")
        case .store(let s): return store(s, t)
        case .restoreFailed(let step, let reason): return t("cli.backup.error.restoreFailed", ["step": step.rawValue, "reason": reason])
        case .rollbackFailed(let step, let reason, let rollback):
            return t("cli.backup.error.rollbackFailed", ["step": step.rawValue, "reason": reason, "rollback": rollback])
        }
    }
}
