import Foundation
import SteppieCore
import SteppieFiles
import SteppieSecurity
import SteppieStore

/// Replaces the store's rows, the device settings and the photo folder with a backup's, as one
/// unit: validate everything first (no changes) → confirm → database rows and settings in one
/// transaction, during which the photo folders are swapped by rename → commit last. Any failure
/// rolls the transaction back and renames the old photo folder back: everything is as before.
public struct Restorer: Sendable {
    public let options: RestoreOptions

    public init(options: RestoreOptions) { self.options = options }

    /// Restores `archive` into `store` and `assetsDirectory`. `confirm` sees the validated plan
    /// (the CLI asks for the guardian PIN there); returning false cancels with nothing changed.
    /// Before the confirmation the archive is only read (photos are checked, not written); the
    /// photos are extracted into the owner-only staging folder only after it.
    ///
    /// A Linux backup replaces the device. A phone backup (iOS, Android) holds one child's data and
    /// replaces only that child (`RestoreOptions.child`, else the only child); with several children
    /// and no child named, `chooseChild` is asked with their names and answers with a name, or — when
    /// it is nil — the restore throws `BackupError.childRequired`.
    public func restore(archive: URL, into store: Store, assetsDirectory: URL, at now: Date,
                        chooseChild: (([String]) throws -> String)? = nil,
                        confirm: (RestorePlan) throws -> Bool, progress: ProgressHandler? = nil) throws -> RestoreReport {
        let assets = assetsDirectory.standardizedFileURL
        let parent = assets.deletingLastPathComponent()
        // A restore killed earlier is finished or undone first, to match the database.
        _ = Self.recover(store: store, assetsDirectory: assets, at: now)

        var loaded = try ArchiveLoader(limits: options.limits, defaultChildName: options.defaultChildName, now: now,
                                       decodeAudio: options.decodeAudio)
            .load(path: archive.path, progress: progress)
        // Holds the new photos until the swap, the old ones after it; gone in every outcome.
        let staging = try StagingArea.create(in: parent)
        defer { staging.remove() }
        let holdings = try storeCall { try store.childHoldings() }
        let target = try self.target(loaded, store: store, holdings: holdings, chooseChild: chooseChild)
        var plan = BackupVerifier.plan(loaded, path: archive.path, replacing: try currentCounts(store, assets: assets))
        plan.childNames = loaded.contents.snapshot.children.map(\.displayName)
        plan.setNames = loaded.contents.snapshot.routineSets.filter { $0.deletedAt == nil }.map(\.name)
        plan.scope = Self.scope(target, loaded: loaded, holdings: holdings)
        if case .child(_, _, let name, _) = target, let scope = plan.scope {
            plan.childNames = [name]
            // The device's PIN stays: a new one is needed only when there is none.
            plan.needsNewPin = !(try storeCall { try store.guardianState() }.hasPin)
            // Only that child's rows go; the photos counted are the files its routines show.
            plan.replacing = BackupCounts(children: scope.replaced.count, routineSets: scope.replaced.reduce(0) { $0 + $1.sets.count },
                                          routines: scope.replaced.reduce(0) { $0 + $1.routines },
                                          dailyLogs: scope.replaced.reduce(0) { $0 + $1.dailyLogs },
                                          assets: scope.replaced.reduce(0) { $0 + $1.photos },
                                          scheduleSlots: scope.replaced.reduce(0) { $0 + $1.scheduleSlots })
        }
        guard try confirm(plan) else { throw BackupError.cancelled }

        switch target {
        case .device:
            try extractPhotos(loaded, into: staging.newAssets)
            RestoreFault.reached("photos")
            // A backup that carries recordings replaces the recordings folder too, in the same swap.
            let listedRecordings = loaded.contents.recordings
            var recordings = listedRecordings
            // (None in the backup and no folder here: there is nothing to swap; the rows still go.)
            let liveRecordings = Self.recordingsFolder(store, beside: parent)
            let recordingsSwap = try listedRecordings.flatMap { listed -> URL? in
                if listed.isEmpty && !FileSystem.exists(liveRecordings) { return nil }
                // Each row gets its file's SHA-256 back (the name its content syncs by; backups do not carry it).
                recordings = try extractRecordings(loaded, listed, into: staging.newRecordings)
                return liveRecordings
            }
            let hashedRecordings = recordings
            // Handed over whole: the store frees the logs once their rows are in.
            var logs = loaded.contents.logs
            loaded.contents.logs = DailyLogRecords()
            try replace(store: store, assets: assets, recordings: recordingsSwap, staging: staging, at: now, progress: progress) {
                try store.replaceAll(with: loaded.contents.snapshot, logs: &logs, recordings: hashedRecordings)
            } settings: {
                try store.replaceDeviceSettings(loaded.contents.snapshot.deviceSettings)
            }
            return RestoreReport(plan: plan, needsNewPin: loaded.contents.needsNewPin)
        case .child(let id, let newChild, _, let locale):
            let holding = holdings.first { $0.id == id }
            let others = holdings.filter { $0.id != id }.reduce(into: Set<String>()) { $0.formUnion($1.photos) }
            let dropped = (holding?.photos ?? []).subtracting(others)
            let kept = try FileSystem.files(in: assets).map(\.name).filter { !dropped.contains($0) }
            let renamed = try extractPhotos(loaded, into: staging.newAssets, besides: kept, from: assets)
            var data = Self.childData(loaded.contents.snapshot, logs: loaded.contents.logs, renamed: renamed)
            data.profile.locale = locale
            try replace(store: store, assets: assets, staging: staging, at: now, progress: progress) {
                try store.replaceChildData(childId: id, newChild: newChild, with: data, at: now)
            } settings: {}
            return RestoreReport(plan: plan, needsNewPin: plan.needsNewPin)
        }
    }

    /// Where the backup goes.
    enum Target {
        case device
        /// A phone backup into the child `id` (`newChild` is inserted first when it is not there);
        /// `locale` is the language the child keeps (a new child takes the phone's).
        case child(id: UUID, newChild: Child?, name: String, locale: String?)
    }

    private func target(_ loaded: LoadedBackup, store: Store, holdings: [ChildHoldings],
                        chooseChild: (([String]) throws -> String)?) throws -> Target {
        guard loaded.manifest.sourcePlatform != .linux else {
            if let child = options.child, !child.isEmpty { throw BackupError.childForDeviceBackup }
            return .device
        }
        let incoming = loaded.contents.snapshot.children.first
        func existing(_ child: Child) -> Target {
            .child(id: child.id, newChild: nil, name: child.displayName, locale: child.profile.locale)
        }
        func new(_ rawName: String) throws -> Target {
            let name = rawName.trimmingCharacters(in: .whitespaces)
            do { try Validator.childName(name) } catch let v as ContractViolation { throw BackupError.store(.invalid(v)) }
            var profile = incoming?.profile ?? FeedbackProfile()
            profile.locale = loaded.contents.snapshot.deviceSettings?.locale
            let child = Child(id: incoming?.id ?? UUID(), displayName: name, profile: profile, createdAt: incoming?.createdAt ?? Date())
            return .child(id: child.id, newChild: child, name: name, locale: profile.locale)
        }
        let active = holdings.filter { !$0.archived }
        var selector = options.child.flatMap { $0.isEmpty ? nil : $0 }
        if selector == nil {
            switch active.count {
            case 0: return try new(options.defaultChildName)
            case 1: return existing(try store.child(id: active[0].id))
            default:
                guard let chooseChild else { throw BackupError.childRequired(children: active.map(\.name)) }
                selector = try chooseChild(active.map(\.name))
            }
        }
        let wanted = selector ?? ""
        do {
            return existing(try store.resolveChild(wanted))
        } catch StoreError.childNotFound {
            return try new(wanted)
        }
    }

    /// The confirmation's names and counts: what goes, what stays, what comes.
    static func scope(_ target: Target, loaded: LoadedBackup, holdings: [ChildHoldings]) -> RestoreScope {
        func contents(_ h: ChildHoldings) -> ChildContents {
            ChildContents(name: h.name, archived: h.archived, sets: h.sets, routines: h.routines, dailyLogs: h.dailyLogs, photos: h.photos.count,
                          scheduleSlots: h.scheduleSlots)
        }
        let s = loaded.contents.snapshot
        // Logs per set, counted over the records' set indices.
        var logsPerRef = [Int](repeating: 0, count: loaded.contents.logs.refs.count)
        for l in loaded.contents.logs.records { logsPerRef[Int(l.set)] += 1 }
        var logsPerSet: [UUID: Int] = [:]
        for (n, id) in loaded.contents.logs.refs.enumerated() where logsPerRef[n] > 0 { logsPerSet[id] = logsPerRef[n] }
        func incoming(_ child: Child, name: String) -> ChildContents {
            let sets = s.routineSets.filter { $0.childId == child.id }
            let setIds = Set(sets.map(\.id))
            let routines = s.routines.filter { setIds.contains($0.routineSetId) }
            var photos = Set<String>()
            for r in routines { if case .photo(_, let asset) = r.icon { photos.insert(asset) } }
            return ChildContents(name: name, archived: child.archivedAt != nil, sets: sets.filter { $0.deletedAt == nil }.map(\.name),
                                 routines: routines.count, dailyLogs: setIds.reduce(0) { $0 + (logsPerSet[$1] ?? 0) },
                                 photos: photos.count, scheduleSlots: s.schedules?.filter { $0.childId == child.id }.count ?? 0)
        }
        switch target {
        case .device:
            return RestoreScope(kind: .device, child: nil, newChild: false, replaced: holdings.map(contents), kept: [],
                                incoming: s.children.map { incoming($0, name: $0.displayName) })
        case .child(let id, let newChild, let name, _):
            return RestoreScope(kind: .child, child: name, newChild: newChild != nil,
                                replaced: holdings.filter { $0.id == id }.map(contents),
                                kept: holdings.filter { $0.id != id }.map(\.name),
                                incoming: s.children.first.map { [incoming($0, name: name)] } ?? [])
        }
    }

    /// The phone backup's one child as `ChildData`, photo icons following any renamed file.
    static func childData(_ s: Snapshot, logs: DailyLogRecords, renamed: [String: String]) -> ChildData {
        var routines = s.routines
        for i in routines.indices {
            if case .photo(let id, let asset) = routines[i].icon, let new = renamed[asset] {
                routines[i].icon = .photo(localAssetId: id, backupAssetName: new)
            }
        }
        // The phone apps keep no snapshot of what a completion showed (docs/backup.md).
        let plain = logs.logs.map { l -> DailyLog in var l = l; l.lookId = nil; return l }
        return ChildData(profile: s.children.first?.profile ?? FeedbackProfile(), sets: s.routineSets, routines: routines, logs: plain)
    }

    /// The second pass over the archive: every photo is read and recognised again (the file is
    /// the one checked, still open) and written 0600 into the 0700 folder `directory`.
    private func extractPhotos(_ loaded: LoadedBackup, into directory: URL) throws {
        _ = try extractPhotos(loaded, into: directory, besides: [], from: directory)
    }

    /// The same, beside the photos `kept` of the folder `current`, which get a second name in
    /// `directory` (a link, no copy). A backup photo whose name a kept photo has is shared when the
    /// bytes are the same, else written under a new name; returns the renames (old → new).
    private func extractPhotos(_ loaded: LoadedBackup, into directory: URL, besides kept: [String], from current: URL) throws -> [String: String] {
        try StagingArea.files(directory.path) { _ = try OwnerOnly.createDirectories(directory.path) }
        let keptNames = Set(kept)
        for name in kept {
            try FileSystem.link(current.appendingPathComponent(name), to: directory.appendingPathComponent(name))
        }
        var renamed: [String: String] = [:]
        for (name, entry) in loaded.assetEntries {
            let bytes = try ArchiveLoader.photo(loaded.zip, entry, limit: options.limits.maxAssetBytes, budget: nil)
            // The bytes checked in the first pass, still: the history's pictures are named by their hash.
            if let first = loaded.contents.snapshot.photoHashes?[name] {
                let again = ArchiveLoader.sha256(bytes)
                guard again == first else { throw BackupError.photoHashMismatch(name: "assets/" + name, expected: first, actual: again) }
            }
            var target = name
            if keptNames.contains(name) {
                if let existing = FileManager.default.contents(atPath: current.appendingPathComponent(name).path), Array(existing) == Array(bytes) {
                    continue
                }
                let ext = (name as NSString).pathExtension.lowercased()
                target = "routine-photo-\(UUID().uuidString.lowercased()).\(ext)"
                renamed[name] = target
            }
            let path = directory.appendingPathComponent(target).path
            try StagingArea.files(path) {
                let fd = try OwnerOnly.openForWriting(path, exclusive: true)
                defer { close(fd) }
                try bytes.withUnsafeBytes { try Descriptor.writeAll(fd, $0, path: path) }
            }
        }
        return renamed
    }

    /// The second pass over a Linux backup's recordings: each is read, written 0600 into the
    /// 0700 folder `directory` and checked there again (the file that goes live is the one checked).
    /// Returns the rows, each with its file's SHA-256.
    private func extractRecordings(_ loaded: LoadedBackup, _ recordings: [RoutineRecording], into directory: URL) throws -> [RoutineRecording] {
        try StagingArea.files(directory.path) { _ = try OwnerOnly.createDirectories(directory.path) }
        var hashed: [RoutineRecording] = []
        for var r in recordings {
            guard let entry = loaded.recordingEntries[r.fileName] else { throw BackupError.missingEntry("recordings/" + r.fileName) }
            let path = directory.appendingPathComponent(r.fileName).path
            _ = try ArchiveLoader.recording(loaded.zip, entry, name: r.fileName, budget: nil, decode: options.decodeAudio, at: path)
            r.sha256 = FileManager.default.contents(atPath: path).map { SHA256.hex(of: $0) }
            hashed.append(r)
        }
        return hashed
    }

    private func storeCall<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as SQLiteError { throw BackupError.store(.sqlite(e)) }
    }

    /// Runs `rows` and `settings`, records the swap in the journal, then swaps the photo folders,
    /// all inside one transaction that commits last; any failure puts everything back. A process
    /// killed at any moment leaves a state `recover` finishes or undoes to match the database:
    /// before the commit the journal row does not exist and the old photos go back; after it the
    /// row says the backup's photos are the right ones.
    private func replace(store: Store, assets: URL, recordings: URL? = nil, staging: StagingArea, at now: Date, progress: ProgressHandler?,
                         rows: () throws -> Void, settings: () throws -> Void) throws {
        let newAssets = staging.newAssets, oldAssets = staging.oldAssets
        var step = RestoreStep.database
        var movedOld = false, movedNew = false
        var movedOldRecordings = false, movedNewRecordings = false
        func ran(_ done: RestoreStep) throws {
            progress?(BackupProgress(phase: "restoring", done: RestoreStep.allCases.firstIndex(of: done).map { $0 + 1 } ?? 0,
                                     total: RestoreStep.allCases.count, item: done.rawValue))
            if options.failAt == done { throw InjectedFailure(step: done) }
        }
        do {
            try FileSystem.createDirectory(newAssets)
            // Whether there was a photo folder before: `recover` needs it to undo a half swap.
            try staging.beginSwap(hadAssets: FileSystem.exists(assets), hadRecordings: recordings.map { FileSystem.exists($0) })
            // The transaction commits last: until then every step can be undone.
            try store.transaction {
                try rows()
                RestoreFault.reached("rows")
                try ran(.database)
                step = .settings
                try settings()
                RestoreFault.reached("settings")
                try ran(.settings)
                step = .assets
                try store.recordPhotoSwap(staging: staging.url.lastPathComponent, at: now)
                RestoreFault.reached("journal")
                if FileSystem.exists(assets) {
                    try FileSystem.rename(assets, to: oldAssets)
                    movedOld = true
                }
                RestoreFault.reached("oldMoved")
                try FileSystem.rename(newAssets, to: assets)
                movedNew = true
                RestoreFault.reached("newMoved")
                // The recordings folder follows the photos' way: the same journal row, marker and undo.
                if let recordings {
                    if FileSystem.exists(recordings) {
                        try FileSystem.rename(recordings, to: staging.oldRecordings)
                        movedOldRecordings = true
                    }
                    try FileSystem.rename(staging.newRecordings, to: recordings)
                    movedNewRecordings = true
                    RestoreFault.reached("recordingsMoved")
                }
                // The renames reach the disk before the commit that makes them the truth.
                try FileSystem.sync(assets.deletingLastPathComponent())
                try FileSystem.sync(staging.url)
                try ran(.assets)
            }
        } catch {
            // The database rolled back with the transaction; put the photo folder back too.
            do {
                if let recordings {
                    if movedNewRecordings { try FileSystem.rename(recordings, to: staging.newRecordings) }
                    if movedOldRecordings { try FileSystem.rename(staging.oldRecordings, to: recordings) }
                }
                if movedNew { try FileSystem.rename(assets, to: newAssets) }
                if movedOld { try FileSystem.rename(oldAssets, to: assets) }
                staging.endSwap()
            } catch let undo {
                throw BackupError.rollbackFailed(step: step, reason: Self.describe(error), rollback: Self.describe(undo))
            }
            throw BackupError.restoreFailed(step: step, reason: Self.describe(error))
        }
        RestoreFault.reached("committed")
        // Committed: the journal row alone now says which photos are right; the marker goes
        // first, so a folder without its row is never mistaken for a swap to undo.
        staging.endSwap()
        RestoreFault.reached("markerRemoved")
        try? store.clearPhotoSwap(staging: staging.url.lastPathComponent)
        RestoreFault.reached("cleared")
    }

    /// What `recover` did (for the service's log and the tests).
    public struct Recovery: Equatable, Sendable {
        /// Restores that committed before they were killed: their leftovers removed.
        public var finished = 0
        /// Restores killed before their commit after they had begun the swap: old photos put back.
        public var undone = 0
        /// Staging folders of restores killed before the swap: removed.
        public var removed = 0
        public var isEmpty: Bool { finished == 0 && undone == 0 && removed == 0 }
    }

    /// The live recordings folder a restore swaps and `recover` repairs: the store's, else
    /// `recordings/` beside the photos.
    static func recordingsFolder(_ store: Store, beside parent: URL) -> URL {
        store.recordingsDirectory?.standardizedFileURL ?? parent.appendingPathComponent("recordings", isDirectory: true)
    }

    /// Finishes or undoes every restore that was killed (its staging folder's lock is free),
    /// so the photo folder matches the database: a restore recorded in the journal committed
    /// and keeps its photos; one that began the swap without a journal row gets the old photo
    /// folder back. Restores running now (their lock held) are left alone. Best effort: what
    /// cannot be done now is tried again next time.
    @discardableResult
    public static func recover(store: Store, assetsDirectory: URL, at now: Date) -> Recovery {
        let assets = assetsDirectory.standardizedFileURL
        let parent = assets.deletingLastPathComponent()
        let recordings = recordingsFolder(store, beside: parent)
        let committed = Set((try? store.photoSwaps()) ?? [])
        var result = Recovery()
        StagingArea.removeStale(in: parent) { staging in
            let name = staging.lastPathComponent
            let newAssets = staging.appendingPathComponent("assets", isDirectory: true)
            let oldAssets = staging.appendingPathComponent("old-assets", isDirectory: true)
            if committed.contains(name) {
                result.finished += 1
                return true
            }
            guard let marker = StagingArea.swapMarkers(in: staging) else {
                result.removed += 1
                return true
            }
            let hadAssets = marker.assets, hadRecordings = marker.recordings
            // Begun, never committed: the database is the old one, so the old photos go back.
            do {
                if let hadRecordings {
                    try undoSwap(live: recordings, new: staging.appendingPathComponent("recordings", isDirectory: true),
                                 old: staging.appendingPathComponent("old-recordings", isDirectory: true), had: hadRecordings)
                }
                if FileSystem.exists(oldAssets) {
                    if !FileSystem.exists(newAssets) && FileSystem.exists(assets) { try FileSystem.rename(assets, to: newAssets) }
                    try FileSystem.rename(oldAssets, to: assets)
                } else if !hadAssets && !FileSystem.exists(newAssets) && FileSystem.exists(assets) {
                    try FileSystem.rename(assets, to: newAssets)
                }
                try FileSystem.sync(parent)
            } catch {
                return false   // left as it is for the next start
            }
            result.undone += 1
            return true
        }
        // Rows whose folder is gone (removed above, or by a crash after the removal).
        for name in committed where !FileSystem.exists(parent.appendingPathComponent(name)) {
            try? store.clearPhotoSwap(staging: name)
        }
        return result
    }

    /// Puts a folder swapped by a restore that did not commit back as it was (the recordings
    /// folder; the photo folder's own undo above is the same rule).
    private static func undoSwap(live: URL, new: URL, old: URL, had: Bool) throws {
        if FileSystem.exists(old) {
            if !FileSystem.exists(new) && FileSystem.exists(live) { try FileSystem.rename(live, to: new) }
            try FileSystem.rename(old, to: live)
        } else if !had && !FileSystem.exists(new) && FileSystem.exists(live) {
            try FileSystem.rename(live, to: new)
        }
    }

    private func currentCounts(_ store: Store, assets: URL) throws -> BackupCounts {
        do {
            let c = try store.rowCounts()
            var result = BackupCounts(children: c.children, routineSets: c.routineSets, routines: c.routines, dailyLogs: c.dailyLogs, assets: 0,
                                      scheduleSlots: c.scheduleSlots)
            result.assets = try FileSystem.files(in: assets).count
            return result
        } catch let e as SQLiteError {
            throw BackupError.store(.sqlite(e))
        }
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case let e as InjectedFailure: return "injected failure after \(e.step.rawValue)"
        case let e as StoreError: return "\(e)"
        case let e as SQLiteError: return e.description
        case let e as BackupError: return "\(e)"
        default: return "\(error)"
        }
    }
}

/// Test-only fault injection for the crash tests (Tests/browser/test_restore_crash.py): with
/// `STEPPIE_TEST_KILL_RESTORE_AT=<phase>` in its environment the process SIGKILLs itself when a
/// restore reaches that phase, as a power cut would stop it there. Read once; unset, nothing happens.
enum RestoreFault {
    static let killAt = ProcessInfo.processInfo.environment["STEPPIE_TEST_KILL_RESTORE_AT"]

    static func reached(_ phase: String) {
        if let killAt, killAt == phase { kill(getpid(), SIGKILL) }
    }
}

/// The failure `RestoreOptions.failAt` injects.
struct InjectedFailure: Error {
    let step: RestoreStep
}
