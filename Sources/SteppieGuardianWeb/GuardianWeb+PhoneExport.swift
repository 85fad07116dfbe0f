import Foundation
import SteppieBackup
import SteppieCore
import SteppieFiles
import SteppieSecurity
import SteppieStore
import SteppieHTML

/// "Export for the phone app" on the backup page: one child's data as the archive the iOS or
/// Android app restores (the same `PhoneExporter` as `steppie backup create --for`), sent as a
/// download built owner-only and removed after.
extension GuardianWeb {
    func phoneExportForm(_ r: Request) -> HTML {
        let children = ((try? r.store.children()) ?? [])
        var h: HTML = "<section aria-labelledby=\"phone-h\"><h2 id=\"phone-h\">\(r.t("web.backup.toPhone"))</h2>"
        h += "<p>\(r.t("web.backup.toPhoneHint"))</p>"
        guard !children.isEmpty else { return h + "<p>\(r.t("web.backup.toPhoneNoChild"))</p></section>" }
        h += "<form method=\"post\" action=\"/guardian/backup/phone\" data-form=\"backup-phone\">\(r.csrf)"
        h += "<p><label for=\"phone-child\">\(r.t("web.backup.toPhoneChild"))</label><select id=\"phone-child\" name=\"child\">"
        for child in children { h += "<option value=\"\(child.id.lowercased)\">\(child.displayName)</option>" }
        h += "</select></p>"
        h += "<p><label for=\"phone-platform\">\(r.t("web.backup.toPhonePlatform"))</label><select id=\"phone-platform\" name=\"platform\">"
        for platform in PhoneExporter.Platform.allCases {
            h += "<option value=\"\(platform.rawValue)\">\(r.t("cli.backup.platform.\(platform.rawValue)"))</option>"
        }
        h += "</select></p>"
        h += "<p data-hint=\"phone-left-out\">\(r.t("cli.backup.phoneLeftOut"))</p>"
        h += "<button type=\"submit\">\(r.t("web.backup.toPhoneButton"))</button></form></section>"
        return h
    }

    func exportForPhone(_ r: Request) -> WebResponse {
        guard let platform = PhoneExporter.Platform(rawValue: r.web.form["platform"] ?? "") else {
            return backupPage(r, status: 400, error: PageError(field: "platform", message: r.t("web.error.choice", ["field": r.t("web.backup.toPhonePlatform")])))
        }
        guard let id = UUID(uuidString: r.web.form["child"] ?? ""), let child = try? r.store.child(id: id), child.archivedAt == nil else {
            return backupPage(r, status: 400, error: PageError(field: "child", message: r.t("web.error.choice", ["field": r.t("web.backup.toPhoneChild")])))
        }
        return archiveDownload(r, prefix: "phone") { target, assets, now in
            try PhoneExporter(appVersion: "0.1.0", timeZone: config.timeZone)
                .export(store: r.store, childId: child.id, for: platform, assetsDirectory: assets, destination: target, at: now).path
        }
    }
}
