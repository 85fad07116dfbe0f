import Foundation
import SteppieCore
import Testing
@testable import SteppieLocalization

@Suite struct CatalogCheckerTests {
    @Test func repositoryCatalogsPassTheChecker() throws {
        let set = try CatalogSet.load(directory: try repositoryLocalization())
        let problems = CatalogChecker.check(set: set)
        #expect(problems.isEmpty, "\(problems.map(\.description).joined(separator: "\n"))")
    }

    @Test func repositoryCatalogsHaveEverySpokenCueWithShortVariantAndScreenLine() throws {
        let set = try CatalogSet.load(directory: try repositoryLocalization())
        for cue in ["announce", "completed", "undone", "next", "allDone", "reminder", "error", "setStartsAt"] {
            for locale in ["ko", "en"] {
                #expect(set[locale]?["tts.\(cue)"] != nil && set[locale]?["tts.\(cue).short"] != nil, "\(locale) \(cue)")
                #expect(set[locale]?["child.status.\(cue)"] != nil, "\(locale) \(cue)")
            }
        }
        let l = Localizer(catalogs: set, systemLocale: nil)
        #expect(l.text("tts.completed", locale: "ko", args: ["routineTitle": "양치하기"]) == "양치하기 완료! 잘했어요!")
        #expect(l.text("tts.allDone", locale: "en") == "All routines are complete.")
        #expect(l.text("tts.reminder", locale: "ko", args: ["minutes": "5", "routineTitle": "아침 먹기"]) == "5분 뒤에 아침 먹기를 해요")
        #expect(l.text("child.remaining", locale: "en", args: ["count": "1"]) == "1 activity left")
        #expect(l.text("child.complete.button", locale: "en") == "I did it")
    }

    @Test func plantedProblemsInACopyAreEachReported() throws {
        let copy = try TempDirectory()
        let source = try repositoryLocalization()
        try FileManager.default.copyItem(at: source, to: copy.url.appendingPathComponent("Localization"))
        let root = copy.url.appendingPathComponent("Localization")
        try edit(root.appendingPathComponent("en/tts.json")) { $0.removeValue(forKey: "tts.allDone") }
        try edit(root.appendingPathComponent("en/tts.json")) { $0["tts.next"] = "Next up: {title}." }
        try edit(root.appendingPathComponent("en/child.json")) { $0["child.empty"] = "  " }
        let problems = CatalogChecker.check(set: try CatalogSet.load(directory: root))
        #expect(problems.contains(.missingKey(key: "tts.allDone", locale: "en")))
        #expect(problems.contains(.placeholderMismatch(key: "tts.next", locale: "en", expected: ["routineTitle"],
                                                       found: ["title"], reference: "ko")))
        #expect(problems.contains(.emptyValue(key: "child.empty", locale: "en")))
        #expect(problems.count == 3, "\(problems)")
    }

    @Test func particleRulesAndPluralCompleteness() throws {
        let en = Catalog(locale: "en", entries: [
            "a.particle": .text(try MessageTemplate(parsing: "{routineTitle|을를} done")),
            "a.plural": .plural([.other: try MessageTemplate(parsing: "{count} things")]),
        ])
        let ko = Catalog(locale: "ko", entries: [
            "a.particle": .text(try MessageTemplate(parsing: "{routineTitle|을릉} 해요")),
            "a.plural": .plural([.other: try MessageTemplate(parsing: "{count}개")]),
        ])
        let problems = CatalogChecker.check(set: CatalogSet([en, ko]), templateLabels: [], iconLabels: [])
        #expect(problems == [
            .particleOutsideKorean(key: "a.particle", locale: "en", placeholder: "routineTitle|을를"),
            .incompletePlural(key: "a.plural", locale: "en", missing: [.one]),
            .unknownParticle(key: "a.particle", locale: "ko", form: "을릉"),
        ])
    }

    @Test func aFixedParticleAfterAPlaceholderIsReported() throws {
        func ko(_ text: String) throws -> [CatalogProblem] {
            let en = Catalog(locale: "en", entries: ["a.x": .text(try MessageTemplate(parsing: "x"))])
            let ko = Catalog(locale: "ko", entries: ["a.x": .text(try MessageTemplate(parsing: text))])
            return CatalogChecker.check(set: CatalogSet([en, ko]), templateLabels: [], iconLabels: []).filter {
                if case .bareParticle = $0 { return true } else { return false }
            }
        }
        #expect(try ko("{path}: {kind}예요.") == [.bareParticle(key: "a.x", locale: "ko", placeholder: "kind", text: "예요", form: "이에요예요")])
        #expect(try ko("{kind}이에요") == [.bareParticle(key: "a.x", locale: "ko", placeholder: "kind", text: "이에요", form: "이에요예요")])
        #expect(try ko("{language}로 재생") == [.bareParticle(key: "a.x", locale: "ko", placeholder: "language", text: "로", form: "으로로")])
        #expect(try ko("{title}을 해요") == [.bareParticle(key: "a.x", locale: "ko", placeholder: "title", text: "을", form: "을를")])
        #expect(try ko("{name}가, 다음") == [.bareParticle(key: "a.x", locale: "ko", placeholder: "name", text: "가", form: "이가")])
        // Counters, invariant particles, words and the agreeing form are fine.
        for fine in ["{count}가지", "{count}개", "{date}에 해요", "{kind|이에요예요}.", "{name}이름", "{n}은행", "{x} 를"] {
            #expect(try ko(fine).isEmpty, "\(fine)")
        }
        let l = Localizer(catalogs: try CatalogSet.load(directory: try repositoryLocalization()), systemLocale: nil)
        #expect(l.text("cli.error.notDirectory", locale: "ko", args: ["path": "/x", "kind": "소켓"]) == "/x: 폴더가 아니라 소켓이에요.")
        #expect(l.text("cli.error.notDirectory", locale: "ko", args: ["path": "/x", "kind": "디스크 장치"]) == "/x: 폴더가 아니라 디스크 장치예요.")
    }

    @Test func koreanMayAddParticlesButNamesMustMatch() throws {
        let en = Catalog(locale: "en", entries: ["tts.x": .text(try MessageTemplate(parsing: "Do {routineTitle}"))])
        let ko = Catalog(locale: "ko", entries: ["tts.x": .text(try MessageTemplate(parsing: "{routineTitle|을를} 해요"))])
        let problems = CatalogChecker.check(set: CatalogSet([en, ko]), templateLabels: [], iconLabels: [])
        #expect(problems == [.spokenWithoutScreenLine(key: "tts.x", expected: "child.status.x")])
    }

    @Test func missingLocaleUnusedKeysAndLabels() throws {
        let ko = Catalog(locale: "ko", entries: [
            "a.used": .text(try MessageTemplate(parsing: "하나")),
            "b.group": .text(try MessageTemplate(parsing: "둘")),
            "c.spare": .text(try MessageTemplate(parsing: "셋")),
            "template.t.title": .text(try MessageTemplate(parsing: "다른 이름")),
        ])
        let labels = [LabelSource(id: "template.t.title", text: LocalizedText(["ko": "양치하기"]))]
        let icons = [LabelSource(id: "toothbrush", text: LocalizedText(["ko": "칫솔", "en": " "]))]
        let problems = CatalogChecker.check(set: CatalogSet([ko]), usedKeys: ["a.used", "b.*", "template.t.title"],
                                            templateLabels: labels, iconLabels: icons)
        #expect(problems == [
            .missingLocale(locale: "en"),
            .unusedKey(key: "c.spare"),
            .labelMissing(kind: .template, id: "template.t.title", locale: "en"),
            .labelDiffers(id: "template.t.title", locale: "ko", catalog: "다른 이름", core: "양치하기"),
            .labelMissing(kind: .icon, id: "toothbrush", locale: "en"),
        ])
        #expect(problems[0].description == "locale en: no catalog (add Localization/en/)")
    }

    @Test func coreLabelsAreCompleteAndTemplateKeysRequired() {
        #expect(CatalogChecker.coreTemplateLabels.count == 16)
        #expect(CatalogChecker.coreIconLabels.count == BuiltinIcons.all.count)
        let problems = CatalogChecker.check(set: CatalogSet([Catalog(locale: "ko"), Catalog(locale: "en")]), iconLabels: [])
        #expect(problems.contains(.missingKey(key: "template.morning.wake_up", locale: "en")))
        #expect(problems.count == 32)
    }

    @Test func spokenToScreenPairing() {
        #expect(CatalogChecker.screenKey(forSpoken: "tts.allDone") == "child.status.allDone")
        #expect(CatalogChecker.screenKey(forSpoken: "tts.allDone.short") == "child.status.allDone")
        #expect(CatalogChecker.screenKey(forSpoken: "child.status.allDone") == nil)
    }

    @Test func problemsReadWell() {
        let p = CatalogProblem.placeholderMismatch(key: "tts.next", locale: "en", expected: ["routineTitle"], found: ["title"], reference: "ko")
        #expect(p.description == "en: tts.next has placeholders {title} but ko has {routineTitle}")
    }

    private func edit(_ file: URL, _ change: (inout [String: Any]) -> Void) throws {
        var object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] ?? [:]
        change(&object)
        try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted]).write(to: file)
    }
}
