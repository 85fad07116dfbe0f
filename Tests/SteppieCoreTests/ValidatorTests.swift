import Foundation
import Testing
@testable import SteppieCore

@Suite struct ValidatorTests {
    @Test(arguments: ["123", "12345", "12a4", "", "１２３４", " 1234"])
    func pinMustBeExactlyFourDigits(_ pin: String) {
        #expect(throws: ContractViolation.self) { try Validator.pin(pin) }
        do { try Validator.pin(pin) } catch let v as ContractViolation {
            #expect(v.field == "pin")
            #expect(v.allowed == "exactly 4 digits 0-9")
            #expect(!v.value.contains(pin) || pin.isEmpty)   // the secret is never echoed
        } catch { Issue.record("unexpected \(error)") }
    }

    @Test func validPinAndRecoveryCodePass() throws {
        try Validator.pin("0000")
        try Validator.recoveryCode("123456")
        #expect(throws: ContractViolation.self) { try Validator.recoveryCode("12345") }
    }

    static let profileCases: [(String, @Sendable (inout FeedbackProfile) -> Void, ContractViolation)] = [
        ("rate 1.6", { $0.ttsRate = 1.6 }, ContractViolation(field: "ttsRate", value: "1.6", allowed: "0.5…1.5")),
        ("rate 0.4", { $0.ttsRate = 0.4 }, ContractViolation(field: "ttsRate", value: "0.4", allowed: "0.5…1.5")),
        ("rate nan", { $0.ttsRate = .nan }, ContractViolation(field: "ttsRate", value: "nan", allowed: "0.5…1.5")),
        ("volume 1.01", { $0.ttsVolume = 1.01 }, ContractViolation(field: "ttsVolume", value: "1.01", allowed: "0.0…1.0")),
        ("undo 4", { $0.undoDurationSeconds = 4 }, ContractViolation(field: "undoDurationSeconds", value: "4", allowed: "3, 5 or 10")),
        ("pitch 100", { $0.pitch = 100 }, ContractViolation(field: "pitch", value: "100", allowed: "0…99")),
        ("lead 0", { $0.notificationLeadTimes = [0] }, ContractViolation(field: "notificationLeadTimes", value: "0", allowed: "up to 5 different minute values, each 1…240")),
        ("lead dup", { $0.notificationLeadTimes = [5, 5] }, ContractViolation(field: "notificationLeadTimes", value: "5,5", allowed: "up to 5 different minute values, each 1…240")),
        ("half quiet", { $0.quietHoursStart = LocalTime("21:00") }, ContractViolation(field: "quietHours", value: "21:00-none", allowed: "both a start and a different end time HH:mm, or neither")),
        ("locale", { $0.locale = "k" }, ContractViolation(field: "locale", value: "k", allowed: "a language tag such as ko, en or en-US")),
    ]

    @Test(arguments: profileCases.indices)
    func profileViolationsNameFieldValueAndAllowed(_ i: Int) {
        var p = FeedbackProfile()
        Self.profileCases[i].1(&p)
        #expect(throws: Self.profileCases[i].2) { try Validator.profile(p) }
    }

    @Test func defaultProfileIsValid() throws { try Validator.profile(FeedbackProfile()) }

    @Test func timeOfDay25IsRefused() {
        #expect(throws: ContractViolation(field: "scheduledTime", value: "25:00", allowed: "a 24-hour time HH:mm, 00:00…23:59")) {
            try Validator.parseTime("25:00", field: "scheduledTime")
        }
    }

    func routine(_ order: Int, title: LocalizedText = LocalizedText(ko: "책 읽기", en: "Read"), icon: IconRef = .builtin(name: "book"),
                 color: String = "color.card.mint", active: Bool = true, deleted: Bool = false) -> Routine {
        Routine(id: UUID(), routineSetId: UUID(), title: title, icon: icon, colorToken: color, order: order,
                isActive: active, createdAt: Date(timeIntervalSince1970: 0), deletedAt: deleted ? Date(timeIntervalSince1970: 1) : nil)
    }

    @Test func titleEmptyInEveryLocaleIsRefused() {
        #expect(throws: ContractViolation(field: "title", value: "(empty in every locale)", allowed: "non-empty text in at least one locale")) {
            try Validator.routine(routine(0, title: LocalizedText(["ko": "", "en": "  "])))
        }
    }

    @Test func titleWithControlOrDirectionOverrideIsRefused() {
        #expect(throws: ContractViolation.self) { try Validator.routine(routine(0, title: LocalizedText(["en": "A\u{202E}B"]))) }
        #expect(throws: ContractViolation.self) { try Validator.routine(routine(0, title: LocalizedText(["en": "A\u{0}B"]))) }
        #expect(throws: ContractViolation.self) { try Validator.routine(routine(0, title: LocalizedText(["en": String(repeating: "x", count: 201)]))) }
    }

    @Test func unknownColorAndIconAreRefused() {
        #expect(throws: ContractViolation(field: "colorToken", value: "color.card.black",
                                          allowed: CardColor.allCases.map(\.token).joined(separator: ", "))) {
            try Validator.routine(routine(0, color: "color.card.black"))
        }
        #expect(throws: ContractViolation(field: "icon", value: "unicorn", allowed: "a builtin icon name (see `steppie icons`) or a photo")) {
            try Validator.routine(routine(0, icon: .builtin(name: "unicorn")))
        }
        #expect(throws: ContractViolation.self) {
            try Validator.routine(routine(0, icon: .photo(localAssetId: UUID().uuidString, backupAssetName: "../evil.jpg")))
        }
    }

    @Test func duplicateOrderAmongVisibleRoutinesIsRefused() throws {
        #expect(throws: ContractViolation(field: "order", value: "1", allowed: "an order not used by another active routine of the set")) {
            try Validator.routines(ofSet: [routine(0), routine(1), routine(1)])
        }
        // A deleted or inactive routine may keep an order a visible one uses.
        try Validator.routines(ofSet: [routine(0), routine(1), routine(1, deleted: true), routine(0, active: false)])
    }

    @Test func aChildHasAtMostOneActiveSetAndItIsNotDeleted() {
        let child = UUID()
        let a = RoutineSet(id: UUID(), childId: child, name: LocalizedText(ko: "가", en: "A"), isActive: true, createdAt: Date())
        var b = a
        b.id = UUID()
        #expect(throws: ContractViolation.self) { try Validator.sets(ofChild: [a, b]) }
        var c = a
        c.deletedAt = Date()
        #expect(throws: ContractViolation.self) { try Validator.sets(ofChild: [c]) }
    }

    @Test func completedLogNeedsCompletedAtAndUndoneHasNone() {
        let base = DailyLog(id: UUID(), date: LocalDay(dayNumber: 20000), routineId: UUID(), routineSetId: UUID(),
                            status: .completed, completedAt: nil, createdAt: Date())
        #expect(throws: ContractViolation.self) { try Validator.log(base) }
        var undone = base
        undone.status = .undone
        undone.completedAt = Date()
        #expect(throws: ContractViolation.self) { try Validator.log(undone) }
    }

    @Test func seedDataMeetsTheContract() throws {
        #expect(BuiltinIcons.all.count >= 60)
        #expect(Set(BuiltinIcons.all.map(\.name)).count == BuiltinIcons.all.count)
        for icon in BuiltinIcons.all {
            #expect(icon.label.value(for: "ko")?.isEmpty == false && icon.label.value(for: "en")?.isEmpty == false, "\(icon.name)")
        }
        #expect(Template.morning.items.map { $0.title.value(for: "ko") ?? "" } == ["일어나기", "세수하기", "양치하기", "옷 입기", "아침 먹기", "가방 챙기기"])
        #expect(Template.school.items.count == 4 && Template.bedtime.items.count == 3)
        for t in Template.allCases {
            for item in t.items {
                try Validator.title(item.title)
                try Validator.icon(.builtin(name: item.icon))
            }
        }
        #expect(CardColor.cycling(6) == .sky && CardColor.cycling(5) == .rose)
    }
}
