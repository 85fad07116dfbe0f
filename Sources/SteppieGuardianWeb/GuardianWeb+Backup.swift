import Foundation
import SteppieBackup
import SteppieCore
import SteppieFiles
import SteppieSecurity
import SteppieStore
import SteppieHTML

/// Backups in the browser: download one (the same archive as `steppie backup create`), or upload
/// one, see everything it would replace — every child and set by name, and the counts — and only
/// then restore it, all or nothing (the same `Restorer` as `steppie backup restore`).
extension GuardianWeb {
    /// An uploaded archive waiting for the guardian's confirmation (one per session).
    struct PendingRestore {
        let token: String
        let path: String
        let plan: RestorePlan
        /// The archive's file: removed when the last copy of this goes (the session ends).
        let file: SpoolFile
    }

    /// Where uploads wait: owner-only, beside the database.
    var uploadFolder: String { OwnerOnly.parent(of: config.databasePath) + "/.steppie-uploads" }

    func backupPage(_ r: Request, status: Int = 200, error: PageError? = nil, pending: PendingRestore? = nil) -> WebResponse {
        var body: HTML = "<section aria-labelledby=\"download-h\"><h2 id=\"download-h\">\(r.t("web.backup.download"))</h2>"
        body += "<p>\(r.t("web.backup.downloadHint"))</p>"
        body += "<form method=\"post\" action=\"/guardian/backup/create\" data-form=\"backup-create\">\(r.csrf)"
        body += "<button type=\"submit\">\(r.t("web.backup.downloadButton"))</button></form></section>"
        body += phoneExportForm(r)
        if let pending {
            body += confirmation(r, pending, error: error)
        } else {
            body += "<section aria-labelledby=\"restore-h\"><h2 id=\"restore-h\">\(r.t("web.backup.restore"))</h2>"
            body += "<p>\(r.t("web.backup.restoreHint"))</p>"
            body += "<form method=\"post\" action=\"/guardian/backup/restore\" enctype=\"multipart/form-data\" data-form=\"backup-restore\">\(r.csrf)"
            body += "<p><label for=\"archive\">\(r.fieldLabel("archive"))</label>"
            body += "<input id=\"archive\" name=\"archive\" type=\"file\" accept=\".zip,application/zip\" required></p>"
            body += "<p><button type=\"submit\">\(r.t("web.backup.check"))</button></p></form></section>"
        }
        return r.page(screen: pending == nil ? "backup" : "backup-confirm", titleKey: "web.backup.title", status: status, error: error, body: body)
    }

    /// What a restore would replace, named: the device's children and sets now, then the backup's.
    private func confirmation(_ r: Request, _ pending: PendingRestore, error: PageError?) -> HTML {
        let plan = pending.plan
        var h: HTML = "<section aria-labelledby=\"confirm-h\" data-restore=\"pending\"><h2 id=\"confirm-h\">\(r.t("web.backup.confirmTitle"))</h2>"
        h += "<p>\(r.t("web.backup.from", ["platform": r.t("cli.backup.platform.\(plan.sourcePlatform.rawValue)"), "created": r.dateTime(iso: plan.createdAt)]))</p>"
        let children = (try? r.store.children(includeArchived: true)) ?? []
        let phone = plan.sourcePlatform != .linux
        if phone { h += "<p>\(r.t("web.backup.phone"))</p>" }
        h += "<h3>\(r.t(phone ? "web.backup.children" : "web.backup.replaced"))</h3><ul data-list=\"replaced\">"
        for child in children {
            let sets = ((try? r.store.sets(childId: child.id)) ?? []).map { r.title($0.name) }
            h += "<li>\(child.displayName)"
            if !sets.isEmpty { h += ": \(sets.joined(separator: ", "))" }
            h += "</li>"
        }
        let now = try? r.store.rowCounts()   // counts, not every row
        h += "</ul><p data-count=\"replaced-logs\">\(r.t("web.backup.logsNow", ["count": String(now?.dailyLogs ?? 0)]))</p>"
        // Child by child, as the command line says it: what each has on the device now (sets,
        // routines, history, photos), what stays, and whose sets the backup brings.
        if let scope = plan.scope {
            h += "<ul data-list=\"scope\">"
            for line in scope.summary { h += "<li>\(r.localizer.text(line, locale: r.locale))</li>" }
            h += "</ul>"
        }
        h += "<h3>\(r.t("web.backup.incoming"))</h3><ul data-list=\"incoming\">"
        for name in plan.childNames ?? [] { h += "<li>\(name)</li>" }
        h += "</ul>"
        if let sets = plan.setNames, !sets.isEmpty {
            h += "<p>\(r.t("web.backup.sets", ["names": sets.map(r.title).joined(separator: ", ")]))</p>"
        }
        h += "<p data-count=\"incoming\">\(r.t("web.backup.counts", ["children": String(plan.counts.children), "sets": String(plan.counts.routineSets), "routines": String(plan.counts.routines), "logs": String(plan.counts.dailyLogs), "photos": String(plan.counts.assets)]))</p>"
        // What happens to the weekly schedules, against the slots on the device now.
        let schedules: String? = switch plan.scheduleChange(current: now?.scheduleSlots ?? 0) {
        case .replace(let slots, let current)?: r.t("cli.backup.schedules.replace", ["slots": String(slots), "current": String(current)])
        case .kept(let current)?: r.t(phone ? "web.backup.schedules.phone" : "cli.backup.schedules.kept", ["current": String(current)])
        case .carried?, nil: nil   // `carried` needs a plan without the device's count; never here
        }
        if let schedules { h += "<p data-count=\"schedules\">\(schedules)</p>" }
        // What happens to the guardian PIN, said before it happens.
        h += "<p class=\"pin-change\" data-pin-change=\"\(plan.pinChange.rawValue)\">\(r.t("web.backup.pin.\(plan.pinChange.rawValue)"))</p>"
        h += "<form method=\"post\" action=\"/guardian/backup/confirm\" data-form=\"backup-confirm\" class=\"inline\">\(r.csrf)"
        h += "<input type=\"hidden\" name=\"upload\" value=\"\(pending.token)\">"
        // The PIN again, as the command line asks for it: a session left open is not enough to
        // replace everything on the device.
        let wrong = error?.field == "pin"
        h += "<p><label for=\"restore-pin\">\(r.t("web.backup.pinLabel"))</label>"
        h += "<input id=\"restore-pin\" name=\"pin\" type=\"password\" inputmode=\"numeric\" autocomplete=\"current-password\" maxlength=\"12\" required"
        h += wrong ? " aria-invalid=\"true\" aria-describedby=\"form-error\">" : ">"
        h += "</p>"
        if phone {
            let active = children.filter { $0.archivedAt == nil }
            h += "<p><label for=\"restore-child\">\(r.t("web.backup.intoChild"))</label><select id=\"restore-child\" name=\"child\">"
            for child in active { h += "<option value=\"\(child.id.lowercased)\">\(child.displayName)</option>" }
            h += "<option value=\"\">\(r.t("web.backup.newChild"))</option></select></p>"
        }
        h += "<button type=\"submit\">\(r.t("web.backup.confirm"))</button></form>"
        h += "<form method=\"post\" action=\"/guardian/backup/cancel\" class=\"inline\">\(r.csrf)"
        h += "<button type=\"submit\" class=\"quiet\">\(r.t("web.backup.cancel"))</button></form></section>"
        return h
    }

    /// A new archive of everything, sent as a download (built owner-only, removed after).
    func createBackup(_ r: Request) -> WebResponse {
        archiveDownload(r, prefix: "download") { target, assets, now in
            try BackupCreator(appVersion: "0.1.0", timeZone: config.timeZone)
                .create(store: r.store, assetsDirectory: assets, destination: target, at: now).path
        }
    }

    /// An archive `build` writes at a fresh owner-only path in the upload folder (given the photo
    /// folder and one instant for the archive and its name), sent as a download with the backup's
    /// default name and removed after.
    func archiveDownload(_ r: Request, prefix: String, build: (_ target: URL, _ assets: URL, _ now: Date) throws -> String) -> WebResponse {
        let now = r.now
        do {
            _ = try OwnerOnly.createDirectories(uploadFolder)
            let name = BackupCreator.defaultFileName(at: now, in: config.timeZone)
            let target = URL(fileURLWithPath: uploadFolder + "/\(prefix)-" + Secrets.randomToken(byteCount: 8) + ".zip")
            defer { unlink(target.path) }
            let assets = config.photosDirectory ?? BackupCreator.assetsDirectory(forDatabase: config.databasePath)
            return try download(try build(target, assets, now), name: name)
        } catch {
            return backupPage(r, status: 500, error: r.pageError(error))
        }
    }

    /// The archive at `path` as a download named `name`. Sent from the open file (the caller
    /// unlinks it), never read into memory: a 37 MiB archive held as Data, [UInt8] and
    /// libmicrohttpd's copy grew the service by 109 MiB.
    func download(_ path: String, name: String) throws -> WebResponse {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        var st = stat()
        guard fd >= 0, fstat(fd, &st) == 0 else {
            let code = errno
            if fd >= 0 { close(fd) }
            throw FileRefusal.system(path: path, operation: "open", errno: code, reason: String(cString: strerror(code)))
        }
        return WebResponse(status: 200, contentType: "application/zip", body: [],
                           headers: [("Content-Disposition", "attachment; filename=\"\(name)\"")],
                           file: ResponseFile(fd: fd, size: UInt64(st.st_size)))
    }

    /// Step 1: the upload is kept owner-only and verified whole; nothing is changed yet. The
    /// server spooled the archive to the upload folder as it arrived; an archive in memory (a
    /// caller other than the HTTP server) is written there first.
    func uploadBackup(_ r: Request, pending: inout PendingRestore?) -> WebResponse {
        discard(&pending)
        guard let file = r.web.files["archive"], file.size > 0 else {
            return backupPage(r, status: 400, error: PageError(field: "archive", message: r.t("web.error.choice", ["field": r.fieldLabel("archive")])))
        }
        let spool: SpoolFile
        if let spooled = file.spool {
            spool = spooled
        } else {
            do throws(UploadRefusal) {
                spool = try config.uploads.spool(in: uploadFolder)
                let written: Result<Void, UploadRefusal> = file.bytes.withUnsafeBytes { bytes in
                    Result { () throws(UploadRefusal) in try spool.write(bytes) }
                }
                try written.get()
                spool.finishWriting()
            } catch {
                return uploadRefused(r, error, backup: true)
            }
        }
        do {
            let plan = try BackupVerifier(decodeAudio: config.decodeAudio).verify(archive: URL(fileURLWithPath: spool.path), defaultChildName: r.t("web.backup.defaultChild"),
                                                   at: r.now, naming: true, holdings: try? r.store.childHoldings())
            let staged = PendingRestore(token: Secrets.randomToken(byteCount: 16), path: spool.path, plan: plan, file: spool)
            pending = staged
            return backupPage(r, pending: staged)
        } catch {
            return backupPage(r, status: 400, error: PageError(field: "archive", message: r.t("web.backup.refused", ["reason": backupReason(r, error)])))
        }
    }

    /// A large upload the device did not take: the page it was sent from, saying why and when to try again.
    func uploadRefused(_ r: Request, _ refusal: UploadRefusal, backup: Bool) -> WebResponse {
        let message: String
        var retry: String?
        switch refusal {
        case .sessionBusy:
            message = r.t("web.upload.sessionBusy")
        case .deviceBusy:
            message = r.t("web.upload.deviceBusy")
            retry = "30"
        case .deviceFull(let mib):
            message = r.t("web.upload.deviceFull", ["mib": String(mib)])
            retry = String(Int(GuardianSession.idleTimeout))
        case .writeFailed:
            message = r.t("web.upload.writeFailed")
        }
        let error = PageError(field: backup ? "archive" : nil, message: message)
        var response = backup ? backupPage(r, status: refusal.status, error: error)
            : r.page(screen: "error", titleKey: "web.error.title", status: refusal.status, error: error)
        if let retry { response.headers.append(("Retry-After", retry)) }
        return response
    }



    /// The PIN typed on the confirmation, checked under this origin's backoff; nil when accepted,
    /// else the page to show (the upload stays waiting).
    private func checkPin(_ r: Request, _ staged: PendingRestore) -> WebResponse? {
        let pin = r.web.form["pin"] ?? ""
        guard (try? Validator.pin(pin)) != nil else {
            return backupPage(r, status: 400, error: PageError(field: "pin", message: r.t("web.signIn.pinForm")), pending: staged)
        }
        do {
            let hasher = try PasswordHasher()
            switch try r.store.attemptUnlock(at: config.secureClock.now(), startsSession: false, origin: r.origin, verify: { hasher.verify(pin, against: $0) }) {
            case .accepted, .notSet:
                return nil
            case .rejected(let failures, let lock):
                let message = lock.map { r.t("web.signIn.wrongLocked", ["count": String(failures), "seconds": String(Int($0.rounded(.up)))]) }
                    ?? r.t("web.signIn.wrong", ["count": String(failures)])
                return backupPage(r, status: 401, error: PageError(field: "pin", message: message), pending: staged)
            case .lockedOut(let left):
                return backupPage(r, status: 429, error: PageError(field: "pin", message: r.t("web.signIn.locked", ["seconds": String(Int(left.rounded(.up)))])),
                                  pending: staged)
            }
        } catch {
            return backupPage(r, status: 500, error: r.pageError(error), pending: staged)
        }
    }

    /// Step 2: the archive confirmed on the page, with the guardian PIN typed again, is restored,
    /// all or nothing.
    func confirmRestore(_ r: inout Request, pending: inout PendingRestore?) -> WebResponse {
        guard let staged = pending, let token = r.web.form["upload"], Secrets.equalInConstantTime(token, staged.token) else {
            return backupPage(r, status: 409, error: PageError(field: nil, message: r.t("web.backup.expired")))
        }
        if let refused = checkPin(r, staged) { return refused }
        defer { discard(&pending) }
        do {
            let chosen = (r.web.form["child"] ?? "").isEmpty ? nil : r.web.form["child"]
            if staged.plan.sourcePlatform != .linux, let chosen, (try? r.store.child(id: UUID(uuidString: chosen) ?? UUID())) == nil {
                throw FormError(field: "child", key: "web.error.choice")
            }
            // A phone backup goes into the chosen child (none chosen: a new one); a Linux backup replaces the device.
            let newName = staged.plan.childNames?.first ?? r.t("web.backup.defaultChild")
            let target = staged.plan.sourcePlatform == .linux ? nil : (chosen ?? Self.freeName(newName, in: r))
            var options = RestoreOptions(defaultChildName: r.t("web.backup.defaultChild"), child: target)
            options.decodeAudio = config.decodeAudio
            let report = try Restorer(options: options)
                .restore(archive: URL(fileURLWithPath: staged.path), into: r.store,
                         assetsDirectory: config.photosDirectory ?? BackupCreator.assetsDirectory(forDatabase: config.databasePath),
                         at: r.now, confirm: { $0.checksum == staged.plan.checksum })
            r.nextNotice = r.t("web.backup.restored", ["routines": String(report.plan.counts.routines), "logs": String(report.plan.counts.dailyLogs)])
            if staged.plan.pinChange == .replaced { r.nextNotice = (r.nextNotice ?? "") + " " + r.t("web.backup.restoredPin") }
            r.pinReplaced = true
            return .seeOther("/guardian/")
        } catch let error as BackupError {
            guard case .rollbackFailed = error else {
                return backupPage(r, status: 400, error: PageError(field: "archive", message: r.t("web.backup.refused", ["reason": backupReason(r, error)])))
            }
            // Not "nothing was changed": the old data could not all be put back (the log says where).
            return backupPage(r, status: 500, error: PageError(field: "archive", message: r.t("web.backup.unfinished", ["reason": r.failureReason(error)])))
        } catch {
            return backupPage(r, status: 400, error: PageError(field: "archive", message: r.t("web.backup.refused", ["reason": backupReason(r, error)])))
        }
    }

    /// A child name no child has yet (`Mina`, then `Mina 2`, …), for a phone backup restored as a new child.
    static func freeName(_ base: String, in r: Request) -> String {
        let taken = Set(((try? r.store.children(includeArchived: true)) ?? []).map { Validator.foldedName($0.displayName) })
        var name = base, n = 2
        while taken.contains(Validator.foldedName(name)) { name = "\(base) \(n)"; n += 1 }
        return name
    }

    func discard(_ pending: inout PendingRestore?) {
        if let p = pending { unlink(p.path) }
        pending = nil
    }

    /// Why an archive was refused, in the page's language where the reason is known.
    private func backupReason(_ r: Request, _ error: any Error) -> String {
        if case BackupError.childRequired? = error as? BackupError { return r.t("web.backup.chooseChild") }
        // What is wrong, in a few words: never the upload's path or the error's Swift value.
        if let e = error as? BackupError { return r.failureReason(e) }
        return r.pageError(error).message
    }
}
