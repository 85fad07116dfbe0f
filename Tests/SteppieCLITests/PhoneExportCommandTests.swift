import Foundation
import Testing
import SteppieBackup
@testable import SteppieCLI

/// `steppie backup create --for ios|android --child NAME` (issue 26, item 5): usage mistakes exit
/// 64 before anything runs and create nothing; the archive is written and said in en and ko.
@Suite struct PhoneExportCommandTests {
    /// Every file under the harness's folder, with its size.
    static func tree(_ h: CLIHarness) -> [String] {
        let base = h.directory.path
        let all = (FileManager.default.enumerator(atPath: base)?.allObjects as? [String]) ?? []
        return all.sorted().map { name in
            let size = (try? FileManager.default.attributesOfItem(atPath: base + "/" + name)[.size] as? NSNumber)?.intValue ?? -1
            return "\(name) \(size)"
        }
    }

    @Test func usageMistakesExit64AndCreateNothing() throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        #expect(h.run(["children", "add", "Joon"]).status == 0)
        let out = h.directory.appendingPathComponent("usb")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let before = Self.tree(h)
        let cases: [([String], String)] = [
            (["backup", "create", "--for", "windows", "--child", "Mina", "--out", out.path],
             "steppie: --for does not accept \"windows\"; allowed: ios, android\nSee: steppie --help\n"),
            (["backup", "create", "--for", "ios", "--out", out.path], "steppie: --for needs --child too\nSee: steppie --help\n"),
            (["backup", "create", "--child", "Mina", "--out", out.path], "steppie: --child needs --for too\nSee: steppie --help\n"),
        ]
        for (args, message) in cases {
            let r = h.run(args)
            #expect(r.status == 64, "\(args): \(r.err)")
            #expect(r.err == message, "\(args): \(r.err)")
            #expect(r.out.isEmpty)
        }
        let ko = h.run(["backup", "create", "--for", "android", "--out", out.path], locale: "ko")
        #expect(ko.status == 64 && ko.err.hasPrefix("steppie: --for에는 --child도 함께 써야 해요\n"), "\(ko.err)")
        #expect(Self.tree(h) == before)
    }

    @Test func theArchiveIsWrittenAndSaidInEnglishAndKorean() throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        #expect(h.run(["complete", "--child", "Mina"]).status == 0)
        let out = h.directory.appendingPathComponent("usb")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let en = h.run(["backup", "create", "--for", "ios", "--child", "Mina", "--out", out.path])
        let path = out.path + "/steppie-backup-20260302-070000.zip"
        #expect(en.status == 0, "\(en.err)")
        #expect(en.out == "Archive for the iOS app written: \(path) (Mina: 6 routines, 1 log entry, 0 photos).\n"
                + "The phone app cannot hold weekly schedules, recorded titles, the volume cap, pitch and voice, or icons it does not have "
                + "(they become its nearest icon); no PIN travels: the phone keeps or asks for its own.\n", "\(en.out)")
        let plan = try BackupVerifier().verify(archive: URL(fileURLWithPath: path), at: Date())
        #expect(plan.sourcePlatform == .ios && plan.backupSchemaVersion == 1 && plan.counts.routines == 6 && plan.counts.dailyLogs == 1)
        try FileManager.default.removeItem(atPath: path)

        let ko = h.run(["backup", "create", "--for", "android", "--child", "Mina", "--out", out.path], locale: "ko")
        #expect(ko.status == 0, "\(ko.err)")
        #expect(ko.out.hasPrefix("안드로이드 앱용 백업을 썼어요: \(path) (Mina: 루틴 6개, 기록 1개, 사진 0장).\n"), "\(ko.out)")
        #expect(ko.out.contains("휴대폰 앱에는 주간 일정"))
        let android = try BackupVerifier().verify(archive: URL(fileURLWithPath: path), at: Date())
        #expect(android.sourcePlatform == .android && android.backupSchemaVersion == 2)

        // --json names the file and what was left out.
        let json = h.run(["backup", "create", "--for", "android", "--child", "Mina", "--out", out.path + "/mine.zip", "--json"])
        let report = try JSONDecoder().decode(PhoneExportReport.self, from: Data(json.out.utf8))
        #expect(report.path == out.path + "/mine.zip" && report.platform == .android && report.child == "Mina")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["mine.zip", "steppie-backup-20260302-070000.zip"])
    }

    @Test func theHelpNamesThePhoneOptions() {
        let help = CLIHarness().run(["backup", "create", "--help"])
        #expect(help.out.contains("--for PLATFORM") && help.out.contains("--child NAME"), "\(help.out)")
    }
}
