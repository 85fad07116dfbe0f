import Testing
@testable import SteppieLocalization

@Suite struct LocalizerTests {
    let title = ["routineTitle": "Brush teeth"]

    @Test func chosenLocaleExactThenLanguage() throws {
        let l = Localizer(catalogs: try sampleSet(), systemLocale: nil)
        #expect(l.text("tts.completed", locale: "en", args: title) == "Brush teeth done. Great job!")
        #expect(l.text("tts.completed", locale: "en-GB", args: title) == "Brush teeth finished. Brilliant!")
        #expect(l.text("tts.completed", locale: "en_gb.UTF-8", args: title) == "Brush teeth finished. Brilliant!")
        #expect(l.text("tts.completed", locale: "en-US", args: title) == "Brush teeth done. Great job!")
    }

    @Test func systemLocaleThenKoreanThenFirstAvailable() throws {
        let set = try sampleSet()
        let english = Localizer(catalogs: set, environment: ["LANG": "en_US.UTF-8"])
        #expect(english.systemLocale == "en_US.UTF-8")
        #expect(english.text("tts.completed", locale: nil, args: title) == "Brush teeth done. Great job!")
        #expect(english.text("tts.completed", locale: "fr", args: title) == "Brush teeth done. Great job!")
        let none = Localizer(catalogs: set, systemLocale: nil)
        #expect(none.text("tts.completed", locale: "fr", args: ["routineTitle": "양치하기"]) == "양치하기 완료! 잘했어요!")
        #expect(none.text("tts.completed", locale: nil, args: ["routineTitle": "양치하기"]) == "양치하기 완료! 잘했어요!")
        // Neither chosen, system nor ko has it: the first locale by name that does.
        #expect(none.text("only.fr", locale: "de") == "Seulement en français")
        #expect(none.text("only.en", locale: "ko") == "English only")
    }

    @Test func environmentPrecedenceIsLcAllThenLcMessagesThenLang() throws {
        let set = try sampleSet()
        #expect(Localizer(catalogs: set, environment: ["LANG": "ko_KR.UTF-8", "LC_ALL": "en_GB.UTF-8"]).systemLocale == "en_GB.UTF-8")
        #expect(Localizer(catalogs: set, environment: ["LANG": "en", "LC_MESSAGES": "ko"]).systemLocale == "ko")
        #expect(Localizer(catalogs: set, environment: ["LANG": "C"]).systemLocale == nil)
    }

    @Test func missingKeyIsVisible() throws {
        let l = Localizer(catalogs: try sampleSet(), systemLocale: "en")
        #expect(l.text("no.such.key", locale: "ko") == "⟦no.such.key⟧")
        #expect(l.resolve("no.such.key", locale: nil) == nil)
    }

    @Test func englishPluralsFollowCount() throws {
        let l = Localizer(catalogs: try sampleSet(), systemLocale: nil)
        #expect(l.text("child.remaining", locale: "en", args: ["count": "1"]) == "1 activity left")
        #expect(l.text("child.remaining", locale: "en", args: ["count": "2"]) == "2 activities left")
        #expect(l.text("child.remaining", locale: "en", args: ["count": "0"]) == "0 activities left")
        #expect(l.text("child.remaining", locale: "en", args: ["count": "1.5"]) == "1.5 activities left")
        #expect(l.text("child.remaining", locale: "en") == "{count} activities left")
        #expect(l.text("child.remaining", locale: "ko", args: ["count": "1"]) == "1개 남았어요")
    }

    @Test func pluralRules() {
        #expect(PluralRules.category(count: "1", locale: "en-US") == .one)
        #expect(PluralRules.category(count: "11", locale: "en") == .other)
        #expect(PluralRules.category(count: "1", locale: "ko") == .other)
        #expect(PluralRules.requiredCategories(locale: "en") == [.one, .other])
        #expect(PluralRules.requiredCategories(locale: "ko-KR") == [.other])
    }

    @Test func koreanParticlesAgreeWithTheSubstitutedTitle() throws {
        let l = Localizer(catalogs: try sampleSet(), systemLocale: nil)
        let cases = [("아침 먹기", "5분 뒤에 아침 먹기를 해요"), ("책", "5분 뒤에 책을 해요"), ("TV", "5분 뒤에 TV를 해요"),
                     ("🎨", "5분 뒤에 🎨을(를) 해요")]
        for (routine, expected) in cases {
            #expect(l.text("tts.reminder", locale: "ko", args: ["minutes": "5", "routineTitle": routine]) == expected)
        }
    }

    @Test func rawTemplates() throws {
        let l = Localizer(catalogs: try sampleSet(), systemLocale: nil)
        #expect(l.format(template: "{place|으로로} 가요", locale: "ko", args: ["place": "집"]) == "집으로 가요")
        #expect(l.format(template: "{place|으로로} 가요", locale: "ko", args: ["place": "학교"]) == "학교로 가요")
        #expect(l.format(template: "{{literal}} {n}", locale: "en", args: ["n": "3"]) == "{literal} 3")
        #expect(l.format(template: "broken {", locale: "en") == "broken {")
        #expect(throws: TemplateSyntaxError(.unclosedPlaceholder, at: 7)) {
            try l.formatChecked(template: "broken {", locale: "en")
        }
        #expect(l.format(template: "{x|엉뚱} ok", locale: "ko", args: ["x": "책"]) == "책엉뚱 ok")
    }

    @Test func showListsEveryLocale() throws {
        let l = Localizer(catalogs: try sampleSet(), systemLocale: nil)
        let rows = l.show(key: "tts.completed")
        #expect(rows.map(\.locale) == ["en", "en-GB", "ko"])
        #expect(rows.last?.text == "{routineTitle} 완료! 잘했어요!")
        #expect(l.show(key: "child.remaining").first?.text == "one: 1 activity left | other: {count} activities left")
        #expect(l.keys(withPrefix: "tts.") == ["tts.completed", "tts.reminder"])
    }
}

@Suite struct PseudoLocaleTests {
    @Test func recognisesPseudoTags() {
        for tag in ["qps", "QPS", "qps-ploc", "en-XA", "en_xa"] { #expect(PseudoLocale.isPseudo(tag), "\(tag)") }
        for tag in ["en", "ko", "qpsx", "en-US"] { #expect(!PseudoLocale.isPseudo(tag), "\(tag)") }
    }

    @Test func catalogTextIsAccentedLongerAndBracketed() throws {
        let l = Localizer(catalogs: try sampleSet(), systemLocale: nil)
        let plain = l.text("only.en", locale: "en")
        let pseudo = l.text("only.en", locale: "qps")
        #expect(pseudo.hasPrefix("[") && pseudo.hasSuffix("]"))
        #expect(pseudo.contains("Éñĝĺíšĥ óñĺý"))
        #expect(Double(pseudo.count) >= Double(plain.count) * 1.4)
    }

    @Test func placeholdersStayIntactAndArgumentsPlain() throws {
        let l = Localizer(catalogs: try sampleSet(), systemLocale: nil)
        let text = l.text("tts.completed", locale: "en-XA", args: ["routineTitle": "Brush teeth"])
        #expect(text.hasPrefix("[Brush teeth đóñé. Ĝŕéáţ ĵóƀ!"))
        let template = try MessageTemplate(parsing: "{routineTitle} done, {count} left")
        #expect(PseudoLocale.transform(template).placeholderNames == ["routineTitle", "count"])
    }

    @Test func pluralsStillWorkAndSystemPseudoApplies() throws {
        let l = Localizer(catalogs: try sampleSet(), systemLocale: "qps")
        #expect(l.text("child.remaining", locale: nil, args: ["count": "1"]).hasPrefix("[1 áçţíṽíţý ĺéƒţ"))
        #expect(l.text("child.remaining", locale: nil, args: ["count": "4"]).hasPrefix("[4 áçţíṽíţíéš ĺéƒţ"))
    }

    @Test func rawTextStaysUnbracketed() throws {
        let l = Localizer(catalogs: try sampleSet(), systemLocale: nil)
        #expect(l.format(template: "Hard-coded {x}", locale: "qps", args: ["x": "1"]) == "Hard-coded 1")
        #expect(l.text("no.such", locale: "qps") == "⟦no.such⟧")
    }
}

@Suite struct SampleArgumentTests {
    @Test func everySpokenPromptRendersWithoutLeftoverPlaceholders() throws {
        let set = try CatalogSet.load(directory: try repositoryLocalization())
        let l = Localizer(catalogs: set, systemLocale: nil)
        for locale in ["ko", "en", "qps"] {
            // Spoken prompts and their on-screen lines (other keys have their own sample values in their tests).
            for key in set.allKeys where ["tts.", "child.", "notification."].contains(where: key.hasPrefix) {
                let text = l.text(key, locale: locale, args: SampleArguments.values(locale: locale))
                #expect(!text.contains("{") && !text.contains("⟦"), "\(locale) \(key): \(text)")
            }
        }
        #expect(l.text("tts.undone", locale: "ko", args: SampleArguments.values(locale: "ko")) == "괜찮아요. 양치하기를 다시 해 볼까요?")
    }
}
