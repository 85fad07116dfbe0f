import Foundation
import Testing
import SteppieFeedback
import SteppieStore
import SteppieLocalization
@testable import SteppieCLI

/// Issue 15, items 4–7: particles and plurals in every message, speech that says times, dates and
/// counts as people do, `l10n render` with real values, and errors in one language.
@Suite struct LanguageTests {
    // MARK: 4. particles and plurals

    /// Golden text: the messages guardians saw with `을(를)`, `이(가)` and `1 failed attempts`.
    @Test(arguments: [
        ("ko", "cli.routine.edited", ["title": "아침 먹기"], "아침 먹기를 저장했어요."),
        ("ko", "cli.routine.edited", ["title": "세수"], "세수를 저장했어요."),
        ("ko", "cli.routine.edited", ["title": "양치 3분"], "양치 3분을 저장했어요."),
        ("ko", "cli.set.activated", ["name": "아침 루틴"], "아침 루틴이 이제 활성 세트예요."),
        ("ko", "cli.set.activated", ["name": "저녁"], "저녁이 이제 활성 세트예요."),
        ("ko", "cli.set.startSet", ["name": "학교", "time": "07:30"], "학교는 매일 07:30에 시작해요."),
        ("ko", "cli.children.renamed", ["child": "민아", "new": "별"], "민아의 이름을 별로 바꿨어요."),
        // `init` and `children add` name the child with its particle (it was dropped: "아이 민아 추가했어요").
        ("ko", "cli.init.childAdded", ["child": "민아"], "아이 민아를 추가했어요."),
        ("ko", "cli.init.childAdded", ["child": "준"], "아이 준을 추가했어요."),
        // The child's screen shows the sentence the voice says when all is done (they differed).
        ("en", "kiosk.allDone", [:], "All routines are complete."),
        ("en", "tts.allDone", [:], "All routines are complete."),
        ("ko", "kiosk.allDone", [:], "오늘 할 일을 모두 끝냈어요."),
        ("ko", "tts.allDone", [:], "오늘 할 일을 모두 끝냈어요."),
        ("ko", "cli.error.conflictingOptions", ["first": "--out", "second": "--output"], "--out, --output: 함께 쓸 수 없는 옵션이에요"),
        ("en", "cli.error.wrongPin", ["count": "1"], "that PIN is not right (1 failed attempt)."),
        ("en", "cli.error.wrongPin", ["count": "3"], "that PIN is not right (3 failed attempts)."),
        ("en", "cli.backup.summary", ["platform": "ios", "version": "2", "created": "2026-03-01", "children": "1",
                                     "routines": "1", "logs": "1", "assets": "0"],
         "Backup from ios (schema 2), made 2026-03-01: 1 child, 1 routine, 1 log entry, 0 photos."),
        ("en", "cli.sets.row", ["name": "Morning", "id": "x", "count": "1"], "  Morning  x  (1 routine)"),
        ("en", "cli.history.monthSummary", ["completed": "1", "days": "1"], "All routines done on 1 of 1 day."),
        ("ko", "cli.backup.restored", ["routines": "1", "logs": "2", "assets": "3"], "루틴 1개, 기록 2개, 사진 3장을 복원했어요."),
    ] as [(String, String, [String: String], String)])
    func guardianMessagesAgree(_ locale: String, _ key: String, _ args: [String: String], _ expected: String) {
        let r = CLIHarness().run(["l10n", "format", key] + args.sorted { $0.key < $1.key }.flatMap { ["--arg", "\($0.key)=\($0.value)"] },
                                 locale: locale)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == expected + "\n")
    }

    /// A real guardian flow in Korean: no particle is left unresolved.
    @Test func koreanGuardianFlowHasNoLiteralParticles() {
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "민아", "--template", "morning"], locale: "ko").status == 0)
        let created = h.run(["set", "create", "--name-ko", "저녁 루틴", "--child", "민아"], locale: "ko")
        #expect(created.status == 0, "\(created.err)")
        #expect(created.out.hasPrefix("민아에게 저녁 루틴을 만들었어요"), "\(created.out)")
        let activated = h.run(["set", "activate", "저녁 루틴", "--child", "민아"], locale: "ko")
        #expect(activated.err.hasPrefix("steppie: ") || activated.out.hasPrefix("저녁 루틴이 "), "\(activated.out)\(activated.err)")
        let all = created.out + activated.out + activated.err
        for literal in ["을(를)", "이(가)", "은(는)", "(으)로", "와(과)", "과(와)"] { #expect(!all.contains(literal), "\(all)") }
    }

    /// `l10n check` fails on a planted `을(를)` and on a planted count without plural forms.
    @Test func checkFailsOnPlantedLiteralParticleAndBarePluralCount() throws {
        let h = CLIHarness()
        let copy = h.directory.appendingPathComponent("Localization")
        try FileManager.default.copyItem(at: CLIHarness.repository.appendingPathComponent("Localization"), to: copy)
        #expect(h.run(["l10n", "check", "--dir", copy.path]).status == 0)
        func edit(_ locale: String, _ file: String, _ key: String, _ value: String) throws {
            let url = copy.appendingPathComponent(locale).appendingPathComponent(file)
            var obj = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            obj[key] = value
            try JSONSerialization.data(withJSONObject: obj).write(to: url)
        }
        try edit("ko", "guardian-cli.json", "cli.routine.edited", "{title}을(를) 저장했어요.")
        let particle = h.run(["l10n", "check", "--dir", copy.path])
        #expect(particle.status == 1)
        #expect(particle.out.contains("ko: cli.routine.edited writes the particle '을(를)' literally"), "\(particle.out)")
        #expect(particle.out.hasSuffix("1 problem.\n"), "\(particle.out)")

        try edit("ko", "guardian-cli.json", "cli.routine.edited", "{title|을를} 저장했습니다.")
        let register = h.run(["l10n", "check", "--dir", copy.path])
        #expect(register.status == 1)
        #expect(register.out.contains("ko: cli.routine.edited ends a sentence in '…니다' (합니다체)"), "\(register.out)")
        #expect(register.out.hasSuffix("1 problem.\n"), "\(register.out)")

        try edit("ko", "guardian-cli.json", "cli.routine.edited", "{title|을를} 저장했어요.")
        try edit("en", "tts.json", "tts.next.short", "Next: {routineTitle}, 5 min.")
        let abbreviation = h.run(["l10n", "check", "--dir", copy.path])
        #expect(abbreviation.status == 1)
        #expect(abbreviation.out.contains("en: spoken line tts.next.short abbreviates 'min.'"), "\(abbreviation.out)")
        try edit("en", "tts.json", "tts.next.short", "Next: {routineTitle}.")
        try edit("en", "guardian-cli.json", "cli.error.wrongPin", "that PIN is not right ({count} failed attempts).")
        let plural = h.run(["l10n", "check", "--dir", copy.path])
        #expect(plural.status == 1)
        #expect(plural.out.contains("en: cli.error.wrongPin puts 'failed' after the count {count} without plural forms"), "\(plural.out)")
        #expect(plural.out.hasSuffix("1 problem.\n"), "\(plural.out)")
    }

    // MARK: 5. speech

    @Test(arguments: [
        ("ko", "07:30에 시작해요", "일곱 시 삼십 분에 시작해요"),
        ("ko", "3월 8일에 사과 3개", "삼월 팔 일에 사과 세 개"),
        ("en", "We start at 07:30", "We start at seven thirty"),
        ("en", "Party on March 8, 2026", "Party on March eighth, twenty twenty-six"),
    ])
    func sayPrintsWhatEspeakIsHanded(_ locale: String, _ text: String, _ expected: String) {
        let r = CLIHarness().run(["say", "--print-spoken", text], locale: locale)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == expected + "\n")
    }

    /// The real binary, as a tester runs it.
    @Test func sayPrintSpokenThroughTheBinary() {
        let b = BinaryHarness()
        let r = b.sh("\"$S\" --locale ko say --print-spoken '07:30에 시작해요. 물 2잔!'")
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == "일곱 시 삼십 분에 시작해요. 물 두 잔!\n")
    }

    /// The cue the child hears says the minutes in words, the screen keeps the digits.
    @Test func previewSaysTheReminderAsPeopleDo() throws {
        let h = CLIHarness()
        let ko = h.run(["feedback", "preview", "--event", "reminder", "--intensity", "normal",
                        "--out", h.directory.appendingPathComponent("r.wav").path], locale: "ko")
        #expect(ko.status == 0, "\(ko.err)")
        #expect(ko.out.contains("“오 분 뒤에 "), "\(ko.out)")
        let en = h.run(["feedback", "preview", "--event", "reminder", "--intensity", "normal",
                        "--out", h.directory.appendingPathComponent("e.wav").path], locale: "en")
        #expect(en.out.contains(" in five minutes”"), "\(en.out)")
    }

    // MARK: 6. l10n render --arg / --child

    @Test func renderTakesArgumentsAndTheChildsTitles() throws {
        let h = CLIHarness()
        let dir = h.directory.appendingPathComponent("r1")
        let r = h.run(["l10n", "render", "--out", dir.path, "--arg", "time=19:30", "--arg", "routineTitle=책 읽기"], locale: "ko")
        #expect(r.status == 0, "\(r.err)")
        let prompts = try Self.prompts(dir)
        let starts = try #require(prompts.first { $0["key"] as? String == "tts.setStartsAt" })
        #expect(starts["text"] as? String == "19:30에 시작해요. 조금만 기다려요.")
        #expect(starts["spoken"] as? String == "저녁 일곱 시 삼십 분에 시작해요. 조금만 기다려요.")
        let announce = try #require(prompts.first { $0["key"] as? String == "tts.announce" })
        #expect(announce["text"] as? String == "이제 책 읽기를 할 차례예요.")

        #expect(h.run(["init", "--child", "Mina", "--template", "morning"], locale: "en").status == 0)
        let out = h.directory.appendingPathComponent("r2")
        let child = h.run(["l10n", "render", "--out", out.path, "--child", "Mina", "--json"], locale: "en")
        #expect(child.status == 0, "\(child.err)")
        let rendered = try Self.prompts(out)
        let titles = Set(rendered.compactMap { $0["routineTitle"] as? String })
        #expect(titles.contains("Brush teeth") && titles.contains("Wash face"), "\(titles)")
        let next = rendered.filter { $0["key"] as? String == "tts.next" }
        #expect(next.count == titles.count)
        #expect(next.contains { $0["text"] as? String == "Next up: Brush teeth." })
        #expect(h.run(["l10n", "render", "--out", out.path, "--arg", "=x"]).status == 64)
    }

    static func prompts(_ dir: URL) throws -> [[String: Any]] {
        let index = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("index.json"))) as? [String: Any])
        return try #require(index["prompts"] as? [[String: Any]])
    }

    // MARK: 7. errors in one language

    static func messages(_ locale: String) throws -> Messages {
        let catalogs = try CatalogSet.load(directory: CLIHarness.repository.appendingPathComponent("Localization"))
        let localizer = Localizer(catalogs: catalogs, systemLocale: nil)
        return Messages(locale: locale) { key, args in localizer.text(key, locale: locale, args: args) }
    }

    /// No English reason inside a Korean sentence and no raw SQLite code on the child's screen.
    @Test(arguments: [
        (SQLiteError(code: 778, message: "disk I/O error") as any Error, "데이터베이스 오류: 입출력 오류예요"),
        (StoreError.sqlite(SQLiteError(code: 13, message: "database or disk is full")), "데이터베이스 오류: 디스크가 가득 찼어요"),
        (StoreError.sqlite(SQLiteError(code: 8, message: "attempt to write a readonly database")),
         "데이터베이스에 쓸 수 없어요 (데이터베이스 파일이 읽기 전용이에요). 아무것도 저장하지 않았어요"),
        (StoreError.sqlite(SQLiteError(code: 5, message: "database is locked")),
         "데이터베이스가 계속 사용 중이에요 (다른 프로그램이 데이터베이스를 쓰고 있어요). 아무것도 저장하지 않았어요. 다시 해 주세요"),
        (FeedbackError.pulse(call: "pa_stream_write", reason: "Bad state"), "PulseAudio 호출이 실패했어요: pa_stream_write"),
        (FeedbackError.speech(call: "espeak_SetVoiceByName(en)", code: 2), "음성 합성이 안 됐어요 (espeak_SetVoiceByName(en), 코드 2)"),
        (FeedbackError.missingSound(name: "chime", directory: "/s"), "효과음 chime.wav가 없어요: /s"),
    ] as [(any Error, String)])
    func koreanErrorsStayKorean(_ error: any Error, _ expected: String) throws {
        let line = ErrorText.line(error, try Self.messages("ko"))
        #expect(line == expected)
        for english in ["error", "disk", "database", "locked", "Bad state", "SQLite"] { #expect(!line.contains(english), "\(line)") }
    }
}
