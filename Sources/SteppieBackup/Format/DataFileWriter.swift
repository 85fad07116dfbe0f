import Foundation
import SteppieCore
import SteppieStore

/// Writes `data.json` in the contract's field names (camelCase, lowercase ids, timestamps with
/// the device's offset, explicit nulls), plus this project's extensions: `children` with their
/// feedback profiles, each routine set's `childId`, the children's `weeklySchedules`, the
/// `routineLooks` completions showed (each log's `lookId`) and the `recordings`.
struct DataFileWriter {
    let timeZone: TimeZone

    /// Streams `snapshot` into `out`, then every log `logs` hands over (after the snapshot's own
    /// `dailyLogs`); `exportedAt` is the backup's instant. Returns how many logs were written.
    @discardableResult
    func write(_ snapshot: Snapshot, logs: ((DailyLog) throws -> Void) throws -> Void = { _ in },
               recordings: [RoutineRecording]? = nil, exportedAt: Date, to out: JSONOutput) throws -> Int {
        let stamps = StampFormatter(timeZone: timeZone)
        func stamp(_ d: Date) { out.string(stamps.format(d)) }
        func optionalStamp(_ d: Date?) { if let d { stamp(d) } else { out.raw("null") } }
        func time(_ t: LocalTime?) { out.optionalString(t?.description) }

        out.raw("{"); out.key("schemaVersion"); out.int(BackupManifest.currentSchemaVersion)
        out.raw(","); out.key("exportedAt"); stamp(exportedAt)

        out.raw(","); out.key("routineSets"); out.raw("[")
        for (n, s) in snapshot.routineSets.enumerated() {
            if n > 0 { out.raw(",") }
            out.raw("{"); out.key("id"); out.string(s.id.lowercased)
            out.raw(","); out.key("childId"); out.string(s.childId.lowercased)
            out.raw(","); out.key("name"); out.stringMap(s.name.values)
            out.raw(","); out.key("isActive"); out.bool(s.isActive)
            out.raw(","); out.key("startTime"); time(s.startTime)
            out.raw(","); out.key("createdAt"); stamp(s.createdAt)
            out.raw(","); out.key("updatedAt"); stamp(s.updatedAt)
            out.raw(","); out.key("deletedAt"); optionalStamp(s.deletedAt)
            out.raw("}")
        }
        out.raw("],"); out.key("routines"); out.raw("[")
        for (n, r) in snapshot.routines.enumerated() {
            if n > 0 { out.raw(",") }
            out.raw("{"); out.key("id"); out.string(r.id.lowercased)
            out.raw(","); out.key("routineSetId"); out.string(r.routineSetId.lowercased)
            out.raw(","); out.key("titleKey"); out.optionalString(r.titleKey)
            out.raw(","); out.key("title"); out.stringMap(r.title.values)
            out.raw(","); out.key("icon")
            switch r.icon {
            case .builtin(let name): out.stringMap(["type": "builtin", "name": name])
            case .photo(let id, let asset): out.stringMap(["type": "photo", "localAssetId": id, "backupAssetName": asset])
            }
            out.raw(","); out.key("colorToken"); out.string(r.colorToken)
            out.raw(","); out.key("order"); out.int(r.order)
            out.raw(","); out.key("scheduledTime"); time(r.scheduledTime)
            out.raw(","); out.key("isActive"); out.bool(r.isActive)
            out.raw(","); out.key("createdAt"); stamp(r.createdAt)
            out.raw(","); out.key("updatedAt"); stamp(r.updatedAt)
            out.raw(","); out.key("deletedAt"); optionalStamp(r.deletedAt)
            out.raw("}")
        }
        out.raw("],"); out.key("dailyLogs"); out.raw("[")
        var written = 0
        let record = LogRecordWriter(stamps: stamps)
        func log(_ l: DailyLog) throws {
            let p = try out.reserve(LogRecordWriter.maxLength + 1)
            var n = 0
            if written > 0 { p[0] = UInt8(ascii: ","); n = 1 }
            n += record.write(l, to: p + n)
            out.advance(by: n)
            written += 1
        }
        for l in snapshot.dailyLogs { try log(l) }
        try logs(log)
        try out.maybeFlush()
        out.raw("],"); out.key("appSettings")
        writeAppSettings(snapshot, exportedAt: exportedAt, out: out, stamp: stamp)
        out.raw(","); out.key("children"); out.raw("[")
        for (n, c) in snapshot.children.enumerated() {
            if n > 0 { out.raw(",") }
            out.raw("{"); out.key("id"); out.string(c.id.lowercased)
            out.raw(","); out.key("displayName"); out.string(c.displayName)
            out.raw(","); out.key("profile"); writeProfile(c.profile, out: out)
            out.raw(","); out.key("createdAt"); stamp(c.createdAt)
            out.raw(","); out.key("updatedAt"); stamp(c.updatedAt)
            out.raw(","); out.key("archivedAt"); optionalStamp(c.archivedAt)
            // The picker's picture, written as a routine's icon is; absent until a guardian chose one.
            switch c.picture {
            case .builtin(let name)?: out.raw(","); out.key("picture"); out.stringMap(["type": "builtin", "name": name])
            case .photo(let id, let asset)?:
                out.raw(","); out.key("picture"); out.stringMap(["type": "photo", "localAssetId": id, "backupAssetName": asset])
            case nil: break
            }
            out.raw("}")
        }
        out.raw("]")
        if let schedules = snapshot.schedules {
            out.raw(","); out.key("weeklySchedules"); out.raw("[")
            for (n, r) in schedules.enumerated() {
                if n > 0 { out.raw(",") }
                out.raw("{"); out.key("childId"); out.string(r.childId.lowercased)
                out.raw(","); out.key("weekday"); out.string(r.slot.weekday.code)
                out.raw(","); out.key("start"); out.string(r.slot.start.description)
                out.raw(","); out.key("routineSetId"); out.string(r.slot.routineSetId.lowercased)
                out.raw(","); out.key("createdAt"); stamp(r.createdAt)
                out.raw(","); out.key("updatedAt"); stamp(r.updatedAt)
                out.raw("}")
            }
            out.raw("]")
        }
        if let hashes = snapshot.photoHashes, !hashes.isEmpty {
            // The content address of each photo (schema v8); a restore checks the bytes against it.
            out.raw(","); out.key("photoHashes"); out.stringMap(hashes)
        }
        if !snapshot.looks.isEmpty {
            // What completions showed (schema v8): logs name them by `lookId`.
            out.raw(","); out.key("routineLooks"); out.raw("[")
            for (n, k) in snapshot.looks.enumerated() {
                if n > 0 { out.raw(",") }
                out.raw("{"); out.key("id"); out.string(k.id.lowercased)
                out.raw(","); out.key("routineId"); out.string(k.routineId.lowercased)
                out.raw(","); out.key("title"); out.stringMap(k.title.values)
                out.raw(","); out.key("icon")
                switch k.icon {
                case .builtin(let name): out.stringMap(["type": "builtin", "name": name])
                case .photo(let id, let asset): out.stringMap(["type": "photo", "localAssetId": id, "backupAssetName": asset])
                }
                out.raw(","); out.key("photoSha256"); out.optionalString(k.photoSha256)
                out.raw(","); out.key("createdAt"); stamp(k.createdAt)
                out.raw("}")
            }
            out.raw("]")
        }
        if let recordings {
            // The guardian's recorded titles; each file travels as `recordings/<file>`.
            out.raw(","); out.key("recordings"); out.raw("[")
            for (n, r) in recordings.enumerated() {
                if n > 0 { out.raw(",") }
                out.raw("{"); out.key("routineId"); out.string(r.routineId.lowercased)
                out.raw(","); out.key("locale"); out.string(r.locale)
                out.raw(","); out.key("durationMs"); out.int(r.durationMs)
                out.raw(","); out.key("createdAt"); stamp(r.createdAt)
                out.raw(","); out.key("file"); out.string(r.fileName)
                out.raw("}")
            }
            out.raw("]")
        }
        out.raw("}")
        return written
    }

    /// The contract's device settings: the PIN hashes and language of the device, and the first
    /// child's feedback settings so another platform restores something sensible.
    private func writeAppSettings(_ snapshot: Snapshot, exportedAt: Date, out: JSONOutput, stamp: (Date) -> Void) {
        let device = snapshot.deviceSettings
        let p = snapshot.children.first?.profile ?? FeedbackProfile()
        out.raw("{"); out.key("id"); out.string("singleton")
        out.raw(","); out.key("guardianPinHash"); out.optionalString(device?.guardianPinHash)
        out.raw(","); out.key("recoveryCodeHash"); out.optionalString(device?.recoveryCodeHash)
        out.raw(","); out.key("feedbackIntensity"); out.string(p.intensity.rawValue)
        out.raw(","); out.key("soundEnabled"); out.bool(p.soundEnabled)
        out.raw(","); out.key("ttsEnabled"); out.bool(p.ttsEnabled)
        out.raw(","); out.key("ttsRate"); out.double(p.ttsRate)
        out.raw(","); out.key("ttsVolume"); out.double(p.ttsVolume)
        out.raw(","); out.key("hapticEnabled"); out.bool(p.hapticEnabled)
        out.raw(","); out.key("undoDurationSeconds"); out.int(p.undoDurationSeconds)
        out.raw(","); out.key("notificationLeadTimes"); writeInts(p.notificationLeadTimes, out: out)
        out.raw(","); out.key("quietHoursStart"); out.optionalString(p.quietHoursStart?.description)
        out.raw(","); out.key("quietHoursEnd"); out.optionalString(p.quietHoursEnd?.description)
        out.raw(","); out.key("locale"); out.optionalString(device?.locale)
        out.raw(","); out.key("createdAt"); stamp(device?.createdAt ?? exportedAt)
        out.raw(","); out.key("updatedAt"); stamp(device?.updatedAt ?? exportedAt)
        out.raw("}")
    }

    private func writeProfile(_ p: FeedbackProfile, out: JSONOutput) {
        out.raw("{"); out.key("intensity"); out.string(p.intensity.rawValue)
        out.raw(","); out.key("soundEnabled"); out.bool(p.soundEnabled)
        out.raw(","); out.key("ttsEnabled"); out.bool(p.ttsEnabled)
        out.raw(","); out.key("hapticEnabled"); out.bool(p.hapticEnabled)
        out.raw(","); out.key("ttsRate"); out.double(p.ttsRate)
        out.raw(","); out.key("ttsVolume"); out.double(p.ttsVolume)
        out.raw(","); out.key("volumeCap"); out.double(p.volumeCap)
        out.raw(","); out.key("pitch"); out.int(p.pitch)
        out.raw(","); out.key("voiceVariant"); out.optionalString(p.voiceVariant)
        out.raw(","); out.key("undoDurationSeconds"); out.int(p.undoDurationSeconds)
        out.raw(","); out.key("notificationLeadTimes"); writeInts(p.notificationLeadTimes, out: out)
        out.raw(","); out.key("quietHoursStart"); out.optionalString(p.quietHoursStart?.description)
        out.raw(","); out.key("quietHoursEnd"); out.optionalString(p.quietHoursEnd?.description)
        out.raw(","); out.key("locale"); out.optionalString(p.locale)
        out.raw("}")
    }

    private func writeInts(_ values: [Int], out: JSONOutput) {
        out.raw("[")
        for (n, v) in values.enumerated() { if n > 0 { out.raw(",") }; out.int(v) }
        out.raw("]")
    }
}

/// One daily log of data.json, written byte by byte into a buffer: the same text the general
/// writer gives (`{"id":…,"date":…,"routineId":…,"routineSetId":…,"status":…,"completedAt":…,
/// "createdAt":…,"updatedAt":…}`, and `"lookId":…` when the completion recorded what it showed),
/// without a string per field. A backup writes a million of them.
struct LogRecordWriter {
    let stamps: StampFormatter
    /// The longest record: every field present.
    static let maxLength = 400

    /// Writes `l` at `p` (room for `maxLength` bytes); returns the bytes written.
    func write(_ l: DailyLog, to p: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
        func put(_ s: StaticString) {
            s.withUTF8Buffer { b in
                if let base = b.baseAddress { (p + n).update(from: base, count: b.count) }
                n += b.count
            }
        }
        func id(_ u: UUID) { p[n] = 0x22; UUIDText.writeLowercase(u, to: p + n + 1); p[n + 37] = 0x22; n += 38 }
        func stamp(_ d: Date) { p[n] = 0x22; stamps.write(d, to: p + n + 1); p[n + 1 + StampFormatter.length] = 0x22; n += StampFormatter.length + 2 }
        put("{\"id\":"); id(l.id)
        put(",\"date\":\""); l.date.write(to: p + n); n += 10; put("\"")
        put(",\"routineId\":"); id(l.routineId)
        put(",\"routineSetId\":"); id(l.routineSetId)
        switch l.status {
        case .completed: put(",\"status\":\"completed\"")
        case .undone: put(",\"status\":\"undone\"")
        }
        put(",\"completedAt\":")
        if let c = l.completedAt { stamp(c) } else { put("null") }
        put(",\"createdAt\":"); stamp(l.createdAt)
        put(",\"updatedAt\":"); stamp(l.updatedAt)
        if let look = l.lookId { put(",\"lookId\":"); id(look) }
        put("}")
        return n
    }
}
