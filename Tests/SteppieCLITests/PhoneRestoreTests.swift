import Foundation
import Testing

/// Restoring through the real binary: a phone backup (one child's data) replaces one child and
/// keeps the others; a Linux backup replaces the device; the confirmation and `--dry-run --json`
/// name every child, set and count; a refused or failed restore changes nothing (dumps compared).
@Suite(.serialized) struct PhoneRestoreTests {
    static let set1 = "3f2a6c1e-8b4d-4e2a-9c1f-2b7d5e8a1c01", set2 = "3f2a6c1e-8b4d-4e2a-9c1f-2b7d5e8a1c02"
    static let r1 = "7c9e6679-7425-40de-944b-e07fc1f90ae1", r2 = "7c9e6679-7425-40de-944b-e07fc1f90ae2"

    /// An Android backup: two sets, two routines (one with a photo), one log, strong feedback.
    static let android = """
    {"schemaVersion":2,"exportedAt":"2026-03-02T07:00:00+09:00","routineSets":[\
    {"id":"\(set1)","name":{"ko":"폰 아침","en":"Phone morning"},"isActive":true,"startTime":null,"createdAt":"2026-01-01T08:00:00+09:00","updatedAt":"2026-02-01T08:00:00+09:00","deletedAt":null},\
    {"id":"\(set2)","name":{"ko":"폰 저녁","en":"Phone evening"},"isActive":false,"startTime":null,"createdAt":"2026-01-01T08:00:00+09:00","updatedAt":"2026-02-05T08:00:00+09:00","deletedAt":null}],\
    "routines":[\
    {"id":"\(r1)","routineSetId":"\(set1)","titleKey":null,"title":{"ko":"양치하기","en":"Brush teeth"},"icon":{"type":"builtin","name":"toothbrush"},"colorToken":"color.card.sky","order":0,"scheduledTime":null,"isActive":true,"createdAt":"2026-01-01T08:00:00+09:00","updatedAt":"2026-01-01T08:00:00+09:00","deletedAt":null},\
    {"id":"\(r2)","routineSetId":"\(set1)","titleKey":null,"title":{"ko":"옷 입기","en":"Get dressed"},"icon":{"type":"photo","localAssetId":"8a5b6b1a-1c47-4f43-a4a3-8b8a64b56921","backupAssetName":"routine-photo-phone1.jpg"},"colorToken":"color.card.mint","order":1,"scheduledTime":null,"isActive":true,"createdAt":"2026-01-01T08:00:00+09:00","updatedAt":"2026-01-01T08:00:00+09:00","deletedAt":null}],\
    "dailyLogs":[\
    {"id":"0b0e4f5a-0000-4000-8000-000000000001","date":"2026-03-01","routineId":"\(r1)","routineSetId":"\(set1)","status":"completed","completedAt":"2026-03-01T07:31:00+09:00","createdAt":"2026-03-01T07:31:00+09:00","updatedAt":"2026-03-01T07:31:00+09:00"}],\
    "appSettings":{"guardianPinHash":null,"recoveryCodeHash":null,"feedbackIntensity":"strong","soundEnabled":true,"ttsEnabled":true,"ttsRate":1,"ttsVolume":0.8,"hapticEnabled":true,"undoDurationSeconds":10,"notificationLeadTimes":[10],"quietHoursStart":null,"quietHoursEnd":null,"locale":"ko-KR","createdAt":"2026-01-01T08:00:00+09:00","updatedAt":"2026-01-01T08:00:00+09:00"}}
    """

    /// Writes a phone archive with Python's zipfile: manifest with the data's SHA-256, data.json,
    /// `assets/` and one small real JPEG.
    static func phoneArchive(in h: BinaryHarness, name: String = "phone.zip", platform: String = "android") throws -> String {
        let data = h.directory + "/phone-data.json"
        try android.write(toFile: data, atomically: true, encoding: .utf8)
        let script = """
        import hashlib, json, sys, zipfile
        data = open(sys.argv[1], 'rb').read()
        manifest = {"app": "Steppie", "backupSchemaVersion": 2, "createdAt": "2026-03-02T07:00:00+09:00", "sourcePlatform": sys.argv[3],
                    "appVersion": "1.0.0", "dataFile": "data.json", "assetDirectory": "assets",
                    "checksum": {"algorithm": "sha256", "dataJson": hashlib.sha256(data).hexdigest()}}
        jpeg = bytes([0xFF,0xD8,0xFF,0xE0,0,0x10,0x4A,0x46,0x49,0x46,0,1,1,0,0,1,0,1,0,0,
                      0xFF,0xC0,0,0x11,8,0,48,0,64,3,1,0x22,0,2,0x11,1,3,0x11,1,1,2,3,0xFF,0xD9])
        with zipfile.ZipFile(sys.argv[2], 'w', zipfile.ZIP_DEFLATED) as z:
            z.writestr('manifest.json', json.dumps(manifest))
            z.writestr('data.json', data)
            z.writestr(zipfile.ZipInfo('assets/'), b'')
            z.writestr('assets/routine-photo-phone1.jpg', jpeg)
        """
        try script.write(toFile: h.directory + "/make-zip.py", atomically: true, encoding: .utf8)
        let r = h.sh("python3 \"$D/make-zip.py\" \"$D/phone-data.json\" \"$D/\(name)\" \(platform)")
        try #require(r.status == 0, "\(r.err)")
        return h.directory + "/" + name
    }

    /// A device with two children (Mina has a completion and a photo file nobody uses), the
    /// archive, and the rows of Joon as sqlite3 prints them.
    static func twoChildren() throws -> (BinaryHarness, String) {
        try #require(FileManager.default.isExecutableFile(atPath: CLIHarness.binary))
        let h = BinaryHarness()
        let now = ["STEPPIE_NOW": "2026-03-02T07:00:00+09:00"]
        #expect(h.sh("$S init --child Mina && $S init --child Joon --template school", env: now).status == 0)
        #expect(h.sh("$S complete --child Mina && $S complete --child Joon", env: now).status == 0)
        try FileManager.default.createDirectory(atPath: h.directory + "/data/assets", withIntermediateDirectories: true)
        try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: URL(fileURLWithPath: h.directory + "/data/assets/routine-photo-keep.jpg"))
        return (h, try phoneArchive(in: h))
    }

    /// One child's rows in every table, as another program reads them.
    static func rows(of child: String, _ h: BinaryHarness) -> String {
        let id = "(SELECT id FROM children WHERE display_name = '\(child)')"
        return ["SELECT * FROM children WHERE id = \(id)",
                "SELECT * FROM routine_sets WHERE child_id = \(id) ORDER BY id",
                "SELECT * FROM routines WHERE routine_set_id IN (SELECT id FROM routine_sets WHERE child_id = \(id)) ORDER BY id",
                "SELECT * FROM daily_logs WHERE routine_set_id IN (SELECT id FROM routine_sets WHERE child_id = \(id)) ORDER BY id",
                "SELECT * FROM set_schedules WHERE child_id = \(id)"].map { h.query($0) }.joined(separator: "\n--\n")
    }

    @Test func severalChildrenAndNoChildNamedIsAUsageErrorThatNamesThemAndChangesNothing() throws {
        let (h, archive) = try Self.twoChildren()
        let dump = h.dump(), tree = h.tree()
        let r = h.sh("$S backup restore '\(archive)'")
        #expect(r.status == 64, "\(r.err)")
        // Both children are named (in the order they were added; both were added in the same second).
        #expect(r.err.contains("name the one it replaces with --child NAME (Mina, Joon)") || r.err.contains("--child NAME (Joon, Mina)"), "\(r.err)")
        let ko = h.sh("$S backup restore '\(archive)' --locale ko")
        #expect(ko.status == 64)
        #expect(ko.err.contains("--child NAME 옵션으로 바꿀 아이를 정하세요 (Mina, Joon)") || ko.err.contains("정하세요 (Joon, Mina)"), "\(ko.err)")
        #expect(h.dump() == dump)
        #expect(h.tree() == tree)
    }

    @Test func aPhoneBackupReplacesOnlyTheNamedChildAndKeepsTheOthers() throws {
        let (h, archive) = try Self.twoChildren()
        let joon = Self.rows(of: "Joon", h)
        let settings = h.query("SELECT * FROM device_settings")
        let minaId = h.query("SELECT id FROM children WHERE display_name = 'Mina'")

        // The dry run names what goes, what stays and what comes, and changes nothing.
        let dump = h.dump(), tree = h.tree()
        let dry = h.sh("$S backup restore '\(archive)' --child Mina --dry-run --json")
        #expect(dry.status == 0, "\(dry.err)")
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(dry.out.utf8)) as? [String: Any])
        let scope = try #require(plan["scope"] as? [String: Any])
        #expect(scope["kind"] as? String == "child" && scope["child"] as? String == "Mina" && scope["newChild"] as? Bool == false)
        #expect(scope["kept"] as? [String] == ["Joon"])
        let replaced = try #require((scope["replaced"] as? [[String: Any]])?.first)
        #expect(replaced["name"] as? String == "Mina" && replaced["routines"] as? Int == 6 && replaced["dailyLogs"] as? Int == 1)
        let incoming = try #require((scope["incoming"] as? [[String: Any]])?.first)
        #expect(incoming["name"] as? String == "Mina" && incoming["routines"] as? Int == 2 && incoming["dailyLogs"] as? Int == 1
                && incoming["photos"] as? Int == 1)
        #expect((incoming["sets"] as? [[String: String]])?.map { $0["en"] } == ["Phone morning", "Phone evening"])
        #expect(h.dump() == dump && h.tree() == tree)

        let r = h.sh("$S backup restore '\(archive)' --child mina")
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("Restored into Mina: 2 routines, 1 log entry and 1 photo.") && r.out.contains("Kept as they were: Joon."), "\(r.out)")
        // Joon and the device settings are exactly as before; Mina keeps her id and gets the phone's data.
        #expect(Self.rows(of: "Joon", h) == joon)
        #expect(h.query("SELECT * FROM device_settings") == settings)
        #expect(h.query("SELECT id FROM children WHERE display_name = 'Mina'") == minaId)
        #expect(h.query("SELECT feedback_intensity, undo_duration_seconds FROM children WHERE display_name = 'Mina'") == "strong|10")
        #expect(h.query("SELECT count(*) FROM routine_sets WHERE child_id = '\(minaId)'") == "2")
        #expect(h.query("SELECT count(*) FROM daily_logs WHERE routine_set_id IN (SELECT id FROM routine_sets WHERE child_id = '\(minaId)')") == "1")
        #expect(h.query("PRAGMA integrity_check") == "ok" && h.query("PRAGMA foreign_key_check") == "")
        // The photo nobody used is kept, the phone's photo is there.
        let photos = try FileManager.default.contentsOfDirectory(atPath: h.directory + "/data/assets").sorted()
        #expect(photos == ["routine-photo-keep.jpg", "routine-photo-phone1.jpg"])

        // The same phone backup into Joon too: ids another child uses get new ones; Mina stays.
        let mina = Self.rows(of: "Mina", h)
        let again = h.sh("$S backup restore '\(archive)' --child Joon")
        #expect(again.status == 0, "\(again.err)")
        #expect(Self.rows(of: "Mina", h) == mina)
        #expect(h.query("SELECT count(*) FROM routine_sets") == "4")
        #expect(h.query("PRAGMA integrity_check") == "ok" && h.query("PRAGMA foreign_key_check") == "")
    }

    /// The confirmation as the guardian reads it, in both languages.
    @Test(arguments: [
        ("en", """
        Backup from Android (schema 2), made 2026-03-02T07:00:00+09:00: 1 child, 2 routines, 1 log entry, 1 photo.
        This phone backup holds one child's data: it replaces only Mina's sets, routines, history, photos and feedback settings.
        Replaced: Mina (sets: Morning routine; 6 routines, 1 log entry, 0 photos).
        Kept as they are: Joon.
        From the backup: Mina (sets: Phone morning, Phone evening; 2 routines, 1 log entry, 1 photo).
        Dry run: nothing was changed.

        """),
        ("ko", """
        안드로이드 백업 (스키마 2), 2026-03-02T07:00:00+09:00에 만듦: 아이 1명, 루틴 2개, 기록 1개, 사진 1장.
        휴대폰 백업에는 아이 한 명의 데이터가 있어요. Mina의 세트, 루틴, 기록, 사진, 피드백 설정만 바꿔요.
        바뀜: Mina (세트: 아침 루틴; 루틴 6개, 기록 1개, 사진 0장).
        그대로 두는 아이: Joon.
        백업에서: Mina (세트: 폰 아침, 폰 저녁; 루틴 2개, 기록 1개, 사진 1장).
        미리 보기만 했어요. 아무것도 바꾸지 않았어요.

        """),
    ])
    func theConfirmationNamesEveryChildSetAndCount(locale: String, golden: String) throws {
        let (h, archive) = try Self.twoChildren()
        let r = h.sh("$S backup restore '\(archive)' --child Mina --dry-run --locale \(locale)")
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == golden, "\(r.out)")
    }

    @Test func aNewNameAddsTheChildAndTheOnlyChildIsTheDefault() throws {
        try #require(FileManager.default.isExecutableFile(atPath: CLIHarness.binary))
        let h = BinaryHarness()
        #expect(h.sh("$S init --child Mina").status == 0)
        let archive = try Self.phoneArchive(in: h)
        let dry = h.sh("$S backup restore '\(archive)' --dry-run")
        #expect(dry.out.contains("it replaces only Mina's sets"), "\(dry.out)")
        let r = h.sh("$S backup restore '\(archive)' --child Sora")
        #expect(r.status == 0, "\(r.err)")
        #expect(h.query("SELECT display_name FROM children ORDER BY created_at") == "Sora\nMina" || h.query("SELECT display_name FROM children ORDER BY rowid") == "Mina\nSora")
        #expect(h.query("SELECT locale FROM children WHERE display_name = 'Sora'") == "ko-KR")
        #expect(h.query("SELECT count(*) FROM routine_sets WHERE child_id = (SELECT id FROM children WHERE display_name = 'Mina')") == "1")
    }

    @Test func aLinuxBackupReplacesTheDeviceNamingEveryChildAndRefusesChild() throws {
        let (h, _) = try Self.twoChildren()
        #expect(h.sh("$S schedule set --child Mina --set 'Morning routine' --days weekdays --from 06:30").status == 0)
        #expect(h.sh("$S backup create --out \"$D/linux.zip\"").status == 0)
        #expect(h.sh("$S children add Sora").status == 0)
        #expect(h.sh("$S schedule set --child Joon --set 'School routine' --days sat,sun --from 09:00").status == 0)
        let dump = h.dump()
        let refused = h.sh("$S backup restore \"$D/linux.zip\" --child Mina")
        #expect(refused.status == 64 && refused.err.contains("--child is only for a phone backup"), "\(refused.err)")
        #expect(h.dump() == dump)
        let dry = h.sh("$S backup restore \"$D/linux.zip\" --dry-run")
        #expect(dry.status == 0)
        for line in ["This Linux backup holds a whole device",
                     "Replaced: Mina (sets: Morning routine; 6 routines, 1 log entry, 0 photos).",
                     "Replaced: Joon (sets: School routine; ", "Replaced: Sora (sets: none; 0 routines, 0 log entries, 0 photos).",
                     "From the backup: Mina (sets: Morning routine; 6 routines, 1 log entry, 0 photos).", "From the backup: Joon (sets: School routine; ",
                     "Weekly schedules: 5 slots from the backup, in place of the 7 slots here."] {
            #expect(dry.out.contains(line), "\(line) in \(dry.out)")
        }
        let ko = h.sh("$S backup restore \"$D/linux.zip\" --dry-run --locale ko")
        #expect(ko.out.contains("주간 시간표: 지금 있는 7칸 대신 백업의 5칸이 들어가요."), "\(ko.out)")
        let verified = h.sh("$S backup verify \"$D/linux.zip\"")
        #expect(verified.status == 0 && verified.out.contains("Weekly schedules: 5 slots in the backup."), "\(verified.out)")
        #expect(h.dump() == dump)
        let r = h.sh("$S backup restore \"$D/linux.zip\"")
        #expect(r.status == 0, "\(r.err)")
        #expect(h.query("SELECT display_name FROM children ORDER BY display_name") == "Joon\nMina")
        #expect(h.query("SELECT count(*) FROM set_schedules") == "5")
    }

    /// A phone backup carries no schedules: the confirmation counts the slots of the child it
    /// replaces, which stay where their set comes back.
    @Test func aPhoneRestoreSaysWhatHappensToTheChildsSchedule() throws {
        let (h, archive) = try Self.twoChildren()
        #expect(h.sh("$S schedule set --child Mina --set 'Morning routine' --days mon,wed --from 06:30").status == 0)
        #expect(h.sh("$S schedule set --child Joon --set 'School routine' --days daily --from 08:00").status == 0)
        let dry = h.sh("$S backup restore '\(archive)' --child Mina --dry-run")
        #expect(dry.out.contains("Weekly schedules: the backup has none; of the 2 slots here, those whose set it brings back stay."), "\(dry.out)")
        let r = h.sh("$S backup restore '\(archive)' --child Mina")
        #expect(r.status == 0, "\(r.err)")
        // The phone sets are new: Mina's two slots pointed at the set that went; Joon's stay.
        #expect(h.query("SELECT count(*) FROM set_schedules WHERE child_id = (SELECT id FROM children WHERE display_name = 'Mina')") == "0")
        #expect(h.query("SELECT count(*) FROM set_schedules WHERE child_id = (SELECT id FROM children WHERE display_name = 'Joon')") == "7")
    }

    /// The photo folder cannot be swapped (made immutable): the child's rows were already replaced
    /// inside the transaction, and all of it is rolled back.
    @Test func aFailureAfterTheRowsPutsEverythingBack() throws {
        let (h, archive) = try Self.twoChildren()
        let assets = h.directory + "/data/assets"
        func chattr(_ flag: String) -> Int32 { h.sh("chattr \(flag) '\(assets)'").status }
        try #require(chattr("+i") == 0, "chattr +i is needed to make the photo folder immovable for root")
        defer { _ = chattr("-i") }
        let dump = h.dump()
        let r = h.sh("$S backup restore '\(archive)' --child Mina")
        #expect(r.status == 1)
        #expect(r.err.contains("everything was put back as it was"), "\(r.err)")
        #expect(chattr("-i") == 0)
        #expect(h.dump() == dump)
        #expect(try FileManager.default.contentsOfDirectory(atPath: assets) == ["routine-photo-keep.jpg"])
        #expect(!h.tree().contains { $0.contains(".steppie-restore-") })
    }
}

/// On a terminal the restore asks which child a phone backup replaces (a number or a name).
@Suite(.serialized) struct PhoneRestoreAskTests {
    @Test func onATerminalTheRestoreAsksWhichChild() throws {
        let (h, archive) = try PhoneRestoreTests.twoChildren()
        let mina = PhoneRestoreTests.rows(of: "Mina", h)
        let t = ChildModeTmuxTests.Tmux()
        defer { t.stop() }
        let command = "STEPPIE_DB='\(h.db)' \(CLIHarness.binary) backup restore '\(archive)' --locale en; echo EXITED $?; sleep 30"
        t.run(["new-session", "-d", "-s", "child", "-x", "160", "-y", "40", command])
        #expect(t.waitFor("Name or number:"), "\(t.screen())")
        #expect(t.screen().contains("Which child should it replace?"))
        let joonNumber = t.screen().contains("1. Joon") ? "1" : "2"
        t.keys(joonNumber, "Enter")
        #expect(t.waitFor("EXITED 0"), "\(t.screen())")
        #expect(t.screen().contains("Restored into Joon: 2 routines, 1 log entry and 1 photo."), "\(t.screen())")
        #expect(PhoneRestoreTests.rows(of: "Mina", h) == mina)
    }
}
