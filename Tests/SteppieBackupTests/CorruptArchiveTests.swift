import Foundation
import Testing
import SteppieCore
@testable import SteppieBackup
@testable import SteppieStore

/// Ways an archive can be broken; each must be refused with the database and photos untouched.
enum Corruption: String, CaseIterable, Sendable {
    case truncated, flippedBytesInData, editedData, wrongChecksum, missingManifest, missingData, unknownSchemaVersion,
         unknownPlatform, wrongApp, duplicateIds, logWithoutRoutine, parentEntry, absoluteEntry, backslashEntry,
         unexpectedEntry, oversizedAsset, compressionBomb, notAZip, notJSON, childNamesFoldAlike,
         scheduleWithAnotherChildsSet, scheduleForAnUnknownChild, scheduleTwiceAtOneStart, scheduleOnNoWeekday, tooManyScheduleSlots
}

@Suite struct CorruptArchiveTests {
    /// A good archive's manifest and data from a populated store.
    static func goodParts(_ source: BackupFixture) throws -> (archive: URL, data: [UInt8]) {
        try source.populate()
        let archive = source.url("good.zip")
        _ = try BackupCreator(appVersion: "1", timeZone: source.zone).create(store: source.store, assetsDirectory: source.assets,
                                                                             destination: archive, at: source.now)
        let zip = try ZipReader(path: archive.path)
        let data = try #require(try zip.entries().first { $0.name == "data.json" })
        return (archive, try zip.readAll(data, limit: 1 << 30))
    }

    static func edit(_ data: [UInt8], _ change: (inout [String: Any]) throws -> Void) throws -> [UInt8] {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(data)) as? [String: Any])
        try change(&object)
        return Array(try JSONSerialization.data(withJSONObject: object))
    }

    /// Builds the broken archive and the error it must be refused with.
    static func build(_ c: Corruption, source: BackupFixture) throws -> (URL, (BackupError) -> Bool) {
        let (good, data) = try goodParts(source)
        let out = source.url("\(c.rawValue).zip")
        func zip(_ entries: [TestEntry]) throws { try makeZip(at: out, entries) }
        let m = try manifest(for: data)
        switch c {
        case .truncated:
            let bytes = try Data(contentsOf: good)
            try bytes.prefix(bytes.count / 2).write(to: out)
            return (out, { if case .notAZip = $0 { true } else { false } })
        case .flippedBytesInData:
            try zip([TestEntry(name: "manifest.json", bytes: m), TestEntry(name: "data.json", bytes: data, deflate: false)])
            var bytes = try Data(contentsOf: out)
            let marker = Data("\"dailyLogs\"".utf8)
            let at = try #require(bytes.range(of: marker)).lowerBound
            for i in at..<(at + 4) { bytes[i] ^= 0x5A }
            try bytes.write(to: out)
            return (out, { if case .entryUnreadable(name: "data.json", _) = $0 { true } else { false } })
        case .editedData:
            var edited = data
            let at = try #require(edited.firstIndex(of: UInt8(ascii: "7")))
            edited[at] = UInt8(ascii: "8")
            try zip([TestEntry(name: "manifest.json", bytes: m), TestEntry(name: "data.json", bytes: edited)])
            return (out, { if case .checksumMismatch = $0 { true } else { false } })
        case .wrongChecksum:
            try zip([TestEntry(name: "manifest.json", bytes: try manifest(for: data, checksum: String(repeating: "0", count: 64))),
                     TestEntry(name: "data.json", bytes: data)])
            return (out, { if case .checksumMismatch(expected: String(repeating: "0", count: 64), _) = $0 { true } else { false } })
        case .missingManifest:
            try zip([TestEntry(name: "data.json", bytes: data), TestEntry(name: "assets/", bytes: [])])
            return (out, { $0 == .missingEntry("manifest.json") })
        case .missingData:
            try zip([TestEntry(name: "manifest.json", bytes: m)])
            return (out, { $0 == .missingEntry("data.json") })
        case .unknownSchemaVersion:
            try zip([TestEntry(name: "manifest.json", bytes: try manifest(for: data, version: 99)), TestEntry(name: "data.json", bytes: data)])
            return (out, { $0 == .unsupportedSchemaVersion(99) })
        case .unknownPlatform:
            try zip([TestEntry(name: "manifest.json", bytes: try manifest(for: data, platform: "windows")), TestEntry(name: "data.json", bytes: data)])
            return (out, { $0 == .unsupportedPlatform("windows") })
        case .wrongApp:
            try zip([TestEntry(name: "manifest.json", bytes: try manifest(for: data, app: "StackDay")), TestEntry(name: "data.json", bytes: data)])
            return (out, { $0 == .wrongApp("StackDay") })
        case .scheduleWithAnotherChildsSet, .scheduleForAnUnknownChild, .scheduleTwiceAtOneStart, .scheduleOnNoWeekday:
            var child = ""
            let edited = try edit(data) { o in
                var slots = try #require(o["weeklySchedules"] as? [[String: Any]])
                let children = try #require(o["children"] as? [[String: Any]])
                try #require(slots.count >= 2 && children.count == 2)
                child = try #require(slots[0]["childId"] as? String)
                switch c {
                case .scheduleWithAnotherChildsSet:
                    // The other child's morning set, on the first slot of this child.
                    let other = try #require(children.compactMap { $0["id"] as? String }.first { $0 != child })
                    let sets = try #require(o["routineSets"] as? [[String: Any]])
                    slots[0]["routineSetId"] = try #require(sets.first { $0["childId"] as? String == other }?["id"])
                case .scheduleForAnUnknownChild:
                    child = UUID().lowercased
                    slots[0]["childId"] = child
                case .scheduleTwiceAtOneStart:
                    slots.append(slots[0])
                default:
                    slots[0]["weekday"] = "someday"
                }
                o["weeklySchedules"] = slots
            }
            try zip([TestEntry(name: "manifest.json", bytes: try manifest(for: edited)), TestEntry(name: "data.json", bytes: edited)])
            switch c {
            case .scheduleWithAnotherChildsSet:
                return (out, { if case .contract("weeklySchedule", child, let v) = $0 { return v.field == "schedule.routineSetId" }; return false })
            case .scheduleForAnUnknownChild:
                return (out, { $0 == .danglingReference(entity: "weeklySchedule", id: child, field: "childId", target: child) })
            case .scheduleTwiceAtOneStart:
                return (out, { if case .contract("weeklySchedule", child, let v) = $0 { return v.field == "schedule.start" }; return false })
            default:
                return (out, { if case .dataInvalid(let path, _) = $0 { return path == "weeklySchedules[0].weekday" }; return false })
            }
        case .tooManyScheduleSlots:
            let edited = try edit(data) { o in
                let slots = try #require(o["weeklySchedules"] as? [[String: Any]])
                o["weeklySchedules"] = Array(repeating: slots[0], count: BackupLimits().maxScheduleSlots + 1)
            }
            try zip([TestEntry(name: "manifest.json", bytes: try manifest(for: edited)), TestEntry(name: "data.json", bytes: edited)])
            return (out, { $0 == .tooManyRecords(kind: .weeklySchedules, limit: BackupLimits().maxScheduleSlots) })
        case .duplicateIds:
            var duplicated = ""
            let edited = try edit(data) { o in
                var routines = try #require(o["routines"] as? [[String: Any]])
                duplicated = try #require(routines[0]["id"] as? String)
                routines[1]["id"] = duplicated
                o["routines"] = routines
            }
            try zip([TestEntry(name: "manifest.json", bytes: try manifest(for: edited)), TestEntry(name: "data.json", bytes: edited)])
            return (out, { $0 == .duplicateId(entity: "routine", id: duplicated) })
        case .childNamesFoldAlike:
            // `Émile` (decomposed) and `EMILE` are one name for the store: the backup is refused whole.
            let edited = try edit(data) { o in
                var children = try #require(o["children"] as? [[String: Any]])
                try #require(children.count >= 2)
                children[0]["displayName"] = "E\u{301}mile"
                children[1]["displayName"] = "EMILE"
                o["children"] = children
            }
            try zip([TestEntry(name: "manifest.json", bytes: try manifest(for: edited)), TestEntry(name: "data.json", bytes: edited)])
            return (out, { $0 == .duplicateChildName("EMILE") })
        case .logWithoutRoutine:
            let missing = UUID().lowercased
            let edited = try edit(data) { o in
                var logs = try #require(o["dailyLogs"] as? [[String: Any]])
                logs[3]["routineId"] = missing
                o["dailyLogs"] = logs
            }
            try zip([TestEntry(name: "manifest.json", bytes: try manifest(for: edited)), TestEntry(name: "data.json", bytes: edited)])
            return (out, { if case .danglingReference(entity: "dailyLog", _, field: "routineId", target: missing) = $0 { true } else { false } })
        case .parentEntry, .absoluteEntry, .backslashEntry:
            let name = c == .parentEntry ? "../evil" : c == .absoluteEntry ? "/etc/x" : "assets\\routine-photo-x.jpg"
            try zip([TestEntry(name: "manifest.json", bytes: m), TestEntry(name: "data.json", bytes: data),
                     TestEntry(name: name, bytes: Array("boom".utf8))])
            return (out, { $0 == .unsafeEntryName(name) })
        case .unexpectedEntry:
            try zip([TestEntry(name: "manifest.json", bytes: m), TestEntry(name: "data.json", bytes: data),
                     TestEntry(name: "assets/notes.txt", bytes: Array("hi".utf8))])
            return (out, { $0 == .unexpectedEntry("assets/notes.txt") })
        case .oversizedAsset:
            try zip([TestEntry(name: "manifest.json", bytes: m), TestEntry(name: "data.json", bytes: data),
                     TestEntry(name: "assets/routine-photo-big.jpg", bytes: [UInt8](repeating: 7, count: (5 << 20) + 1), deflate: false)])
            return (out, { $0 == .entryTooLarge(name: "assets/routine-photo-big.jpg", size: (5 << 20) + 1, limit: 5 << 20) })
        case .compressionBomb:
            let zeros = [UInt8](repeating: 0, count: 20 << 20)
            try zip([TestEntry(name: "manifest.json", bytes: try manifest(for: zeros)), TestEntry(name: "data.json", bytes: zeros, level: 9)])
            return (out, { if case .compressionRatioTooHigh(name: "data.json", uncompressed: 20 << 20, _) = $0 { true } else { false } })
        case .notAZip:
            try Data("this is a shopping list, not a backup\n".utf8).write(to: out)
            return (out, { if case .notAZip = $0 { true } else { false } })
        case .notJSON:
            let text = Array("{\"schemaVersion\": 2, \"routines\": [".utf8)
            try zip([TestEntry(name: "manifest.json", bytes: try manifest(for: text)), TestEntry(name: "data.json", bytes: text)])
            return (out, { if case .dataInvalid(path: "data.json", _) = $0 { true } else { false } })
        }
    }

    @Test(arguments: Corruption.allCases)
    func refusedWithNothingChanged(_ corruption: Corruption) throws {
        let source = try BackupFixture()
        let (archive, expected) = try Self.build(corruption, source: source)
        let target = try BackupFixture()
        try target.populate()
        let before = (try target.store.dump(), try target.assetFiles(), try target.databaseFolder())
        var confirmed = false
        do {
            _ = try Restorer(options: RestoreOptions(defaultChildName: "Child"))
                .restore(archive: archive, into: target.store, assetsDirectory: target.assets, at: target.now,
                         confirm: { _ in confirmed = true; return true })
            Issue.record("\(corruption) was restored")
        } catch let e as BackupError {
            #expect(expected(e), "\(corruption): \(e)")
        }
        #expect(!confirmed, "validation must finish before asking for the PIN")
        #expect(throws: BackupError.self) { try BackupVerifier().verify(archive: archive, at: target.now) }
        #expect(try target.store.dump() == before.0)
        #expect(try target.assetFiles() == before.1)
        #expect(try target.databaseFolder() == before.2)
    }
}
