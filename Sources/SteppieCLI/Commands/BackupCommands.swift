import CTerminal
import Foundation
import SteppieBackup
import SteppieCore
import SteppieFeedback
import SteppieFiles
import SteppieSecurity
import SteppieStore

/// `steppie backup create|verify|restore`: Steppie's backup archive, all-or-nothing restore.
enum BackupCommands {
    static let appVersion = SteppieVersion.current

    static func create(_ c: Context) throws -> Int32 {
        if let platform = c.invocation.value("--for").flatMap(PhoneExporter.Platform.init(rawValue:)) {
            return try createForPhone(c, platform: platform)
        }
        let store = try c.store()
        let now = c.now
        let name = BackupCreator.defaultFileName(at: now, in: store.timeZone)
        var path = c.invocation.value("--out") ?? name
        // A folder (a USB stick's, say) gets the default name inside it, as docs/backup.md says.
        if OwnerOnly.kind(of: path) == .directory { path += (path.hasSuffix("/") ? "" : "/") + name }
        let destination = URL(fileURLWithPath: path)
        let report = try BackupCreator(appVersion: appVersion, timeZone: store.timeZone)
            .create(store: store, assetsDirectory: BackupCreator.assetsDirectory(forDatabase: store.path),
                    destination: destination, at: now, progress: progress(c))
        endProgress(c)
        if c.json { return try printJSON(report, c) }
        c.console.print(c.text("cli.backup.created", ["path": report.path, "bytes": String(report.bytes), "routines": String(report.counts.routines),
                                                      "logs": String(report.counts.dailyLogs), "assets": String(report.counts.assets)]))
        return 0
    }

    /// `backup create --for ios|android --child NAME`: one child's data as the phone app's archive.
    static func createForPhone(_ c: Context, platform: PhoneExporter.Platform) throws -> Int32 {
        let store = try c.store()
        let child = try store.resolveChild(c.invocation.value("--child"))
        let now = c.now
        let path = c.invocation.value("--out") ?? BackupCreator.defaultFileName(at: now, in: store.timeZone)
        let report = try PhoneExporter(appVersion: appVersion, timeZone: store.timeZone)
            .export(store: store, childId: child.id, for: platform, assetsDirectory: BackupCreator.assetsDirectory(forDatabase: store.path),
                    destination: URL(fileURLWithPath: path), at: now)
        if c.json { return try printJSON(report, c) }
        c.console.print(c.text("cli.backup.phoneCreated", ["path": report.path, "platform": c.text("cli.backup.platform.\(platform.rawValue)"),
                                                           "child": report.child, "routines": String(report.counts.routines),
                                                           "logs": String(report.counts.dailyLogs), "assets": String(report.counts.photos)]))
        // What the phone cannot hold, briefly (docs/backup.md, "What a phone export leaves out").
        c.console.print(c.text("cli.backup.phoneLeftOut"))
        return 0
    }

    static func verify(_ c: Context) throws -> Int32 {
        let plan = try BackupVerifier(decodeAudio: SoundFile.decodeRecording).verify(archive: archive(c), defaultChildName: c.text("cli.init.defaultChildName"),
                                                at: c.now, progress: progress(c))
        endProgress(c)
        if c.json { return try printJSON(plan, c) }
        c.console.print(summary(plan, c))
        c.console.print(c.text("cli.backup.verified"))
        return 0
    }

    static func restore(_ c: Context) throws -> Int32 {
        let dryRun = c.invocation.flag("--dry-run")
        // A dry run only looks: it never creates a database and needs no PIN.
        if dryRun { c.lookOnly = true }
        let store = try c.store()
        var options = RestoreOptions(defaultChildName: c.text("cli.init.defaultChildName"), child: c.invocation.value("--child"))
        options.decodeAudio = SoundFile.decodeRecording
        let restorer = Restorer(options: options)
        let report: RestoreReport
        do {
            report = try restorer.restore(archive: archive(c), into: store,
                                          assetsDirectory: BackupCreator.assetsDirectory(forDatabase: store.path), at: c.now,
                                          chooseChild: askForChild(c),
                                          confirm: { plan in
                                              if dryRun {
                                                  if c.json { _ = try printJSON(plan, c) } else { c.console.print(summary(plan, c)) }
                                                  return false
                                              }
                                              return try confirm(plan, c, store)
                                          }, progress: progress(c))
        } catch BackupError.cancelled where dryRun {
            endProgress(c)
            if !c.json { c.console.print(c.text("cli.restore.dryRun")) }
            return 0
        } catch let e as BackupError {
            endProgress(c)
            switch e {
            case .childRequired, .childForDeviceBackup:
                // Which child a phone backup replaces is the caller's choice: a usage mistake.
                c.console.error(c.text(e.catalogMessage))
                return Steppie.exitUsage
            default: throw e
            }
        }
        endProgress(c)
        if c.json { return try printJSON(report, c) }
        let counts: [String: String] = ["routines": String(report.plan.counts.routines), "logs": String(report.plan.counts.dailyLogs),
                                        "assets": String(report.plan.counts.assets)]
        if let scope = report.plan.scope, scope.kind == .child, let child = scope.child {
            c.console.print(c.text("cli.restore.restoredInto", counts.merging(["child": child]) { $1 }))
            if !scope.kept.isEmpty { c.console.print(c.text("cli.restore.keptAfter", ["children": scope.kept.joined(separator: ", ")])) }
        } else {
            c.console.print(c.text("cli.backup.restored", counts))
        }
        if report.needsNewPin {
            // Another platform's PIN hash cannot be checked here, so it was cleared; a Linux backup
            // simply had none, and a phone backup into one child leaves the device's PIN alone.
            c.console.print(c.text(report.plan.sourcePlatform == .linux || report.plan.scope?.kind == .child
                                   ? "cli.backup.noPin" : "cli.backup.needsNewPin"))
        }
        return 0
    }

    /// Asks on the terminal which child a phone backup replaces; nil (no asking) without one, so
    /// the restore stops with a usage error naming `--child` and the children.
    static func askForChild(_ c: Context) -> (([String]) throws -> String)? {
        guard isatty(STDIN_FILENO) == 1, !c.invocation.flag("--pin-stdin"), !c.json else { return nil }
        return { names in
            c.console.error(c.text("cli.restore.ask"))
            for (n, name) in names.enumerated() { c.console.error("  \(n + 1). \(name)") }
            c.console.errorText(c.text("cli.restore.askPrompt") + " ")
            guard let line = c.env.readLine()?.trimmingCharacters(in: .whitespaces), !line.isEmpty else { throw BackupError.cancelled }
            if let n = Int(line), names.indices.contains(n - 1) { return names[n - 1] }
            return line
        }
    }

    /// Shows what will be replaced, then asks for the guardian PIN when one is set.
    static func confirm(_ plan: RestorePlan, _ c: Context, _ store: Store) throws -> Bool {
        if !c.json { c.console.error(summary(plan, c) + "\n" + c.text("cli.backup.pin.\(plan.pinChange.rawValue)")) }
        guard try store.guardianState().hasPin else { return true }
        let pin = try SecretReader(c).read("guardian.pin.prompt")
        try Validator.pin(pin)
        let hasher = try PasswordHasher()
        try GuardianCommands.accepted(store.attemptUnlock(at: c.secureNow) { hasher.verify(pin, against: $0) }, kind: .pin)
        return true
    }

    static func summary(_ plan: RestorePlan, _ c: Context) -> String {
        var text = c.text("cli.backup.summary", ["platform": c.text("cli.backup.platform.\(plan.sourcePlatform.rawValue)"), "version": String(plan.backupSchemaVersion),
                                                 "created": plan.createdAt, "children": String(plan.counts.children),
                                                 "routines": String(plan.counts.routines), "logs": String(plan.counts.dailyLogs),
                                                 "assets": String(plan.counts.assets)])
        if let scope = plan.scope {
            text += "\n" + scope.summary.map { c.text($0) }.joined(separator: "\n")
        } else if let now = plan.replacing {
            text += "\n" + c.text("cli.backup.replacing", ["routines": String(now.routines), "logs": String(now.dailyLogs),
                                                           "assets": String(now.assets)])
        }
        if let line = scheduleLine(plan, c.text) { text += "\n" + line }
        if plan.photosReplaced > 0 || plan.iconsReplaced > 0 {
            text += "\n" + c.text("cli.backup.iconsReplaced", ["count": String(plan.photosReplaced + plan.iconsReplaced)])
        }
        return text
    }

    /// What happens to the weekly schedules (`RestorePlan.scheduleChange`), in the user's words.
    static func scheduleLine(_ plan: RestorePlan, _ text: Messages) -> String? {
        switch plan.scheduleChange() {
        case .replace(let slots, let current)?: text("cli.backup.schedules.replace", ["slots": String(slots), "current": String(current)])
        case .carried(let slots)?: text("cli.backup.schedules.carried", ["slots": String(slots)])
        case .kept(let current)?: text("cli.backup.schedules.kept", ["current": String(current)])
        case nil: nil
        }
    }

    static func archive(_ c: Context) -> URL { URL(fileURLWithPath: c.invocation.argument("FILE") ?? "") }

    /// A progress bar on standard error when it is a terminal and no JSON is wanted.
    static func progress(_ c: Context) -> ProgressHandler? {
        guard !c.json, isatty(STDERR_FILENO) == 1 else { return nil }
        return { p in
            guard p.total > 0 else { return }
            let width = 30
            let filled = min(width, p.done * width / p.total)
            c.console.errorText("\r" + c.text("cli.backup.progress.\(p.phase)") + " [" + String(repeating: "#", count: filled)
                                + String(repeating: " ", count: width - filled) + "] \(p.done)/\(p.total)\u{1B}[K")
        }
    }

    static func endProgress(_ c: Context) {
        if !c.json, isatty(STDERR_FILENO) == 1 { c.console.errorText("\r\u{1B}[K") }
    }

    static func printJSON<T: Encodable>(_ value: T, _ c: Context) throws -> Int32 {
        try c.printJSON(value)
        return 0
    }
}
