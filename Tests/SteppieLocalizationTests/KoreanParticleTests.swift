import SteppieCore
import Testing
@testable import SteppieLocalization

/// Expected final sound, written compactly: V vowel, R ㄹ, C other consonant, ? unclear.
private func sound(_ code: Character) -> FinalSound? {
    switch code {
    case "V": .vowel
    case "R": .rieul
    case "C": .consonant
    default: nil
    }
}

/// Every builtin icon's Korean label with the final sound a Korean speaker hears.
private let iconLabelSounds: [(String, Character)] = [
    ("해", "V"), ("달", "R"), ("별", "R"), ("알람 시계", "V"), ("침대", "V"), ("베개", "V"), ("세수", "V"),
    ("칫솔", "R"), ("치약", "C"), ("수건", "C"), ("비누", "V"), ("샤워", "V"), ("욕조", "V"), ("화장실", "R"),
    ("손 씻기", "V"), ("빗", "C"), ("셔츠", "V"), ("바지", "V"), ("양말", "R"), ("신발", "R"), ("겉옷", "C"),
    ("모자", "V"), ("잠옷", "C"), ("가방", "C"), ("아침밥", "C"), ("점심밥", "C"), ("저녁밥", "C"), ("간식", "C"),
    ("물", "R"), ("우유", "V"), ("사과", "V"), ("숟가락", "C"), ("약", "C"), ("학교", "V"), ("버스", "V"),
    ("자동차", "V"), ("걷기", "V"), ("책", "C"), ("연필", "R"), ("숙제", "V"), ("컴퓨터", "V"), ("음악", "C"),
    ("그림 그리기", "V"), ("블록", "C"), ("공", "C"), ("놀이", "V"), ("퍼즐", "R"), ("텔레비전", "C"), ("공원", "C"),
    ("자전거", "V"), ("수영", "C"), ("강아지", "V"), ("고양이", "V"), ("화분", "C"), ("정리하기", "V"),
    ("쓰레기통", "C"), ("빨래", "V"), ("가족", "C"), ("친구", "V"), ("안아 주기", "V"), ("전화", "V"), ("병원", "C"),
    ("달력", "C"), ("시계", "V"), ("하트", "V"), ("웃는 얼굴", "R"), ("확인", "C"), ("집", "C"), ("동화", "V"),
]

/// Template titles and set names.
private let templateSounds: [(String, Character)] = [
    ("일어나기", "V"), ("세수하기", "V"), ("양치하기", "V"), ("옷 입기", "V"), ("아침 먹기", "V"), ("가방 챙기기", "V"),
    ("학교 가기", "V"), ("책 읽기", "V"), ("점심 먹기", "V"), ("놀이하기", "V"), ("목욕하기", "V"), ("잠옷 입기", "V"),
    ("잠자기", "V"), ("아침 루틴", "C"), ("학교 루틴", "C"), ("잠자리 루틴", "C"),
]

/// Titles ending in digits, Latin letters, mixed scripts, punctuation, and unclear endings.
private let otherSounds: [(String, Character)] = [
    // digits, read as Sino-Korean numbers
    ("3", "C"), ("2", "V"), ("1", "R"), ("0", "C"), ("4", "V"), ("5", "V"), ("6", "C"), ("7", "R"), ("8", "R"),
    ("9", "V"), ("10", "C"), ("12", "V"), ("15", "V"), ("20", "C"), ("100", "C"), ("1000", "C"), ("10000", "C"),
    ("200000", "C"), ("100000000", "C"), ("3.5", "V"), ("2.0", "C"), ("1,000", "C"), ("숙제 2", "V"), ("Level 3", "C"),
    ("50%", "V"),
    // Latin letters and words
    ("A", "V"), ("L", "R"), ("M", "C"), ("N", "C"), ("R", "R"), ("B", "V"), ("TV", "V"), ("ABC", "V"), ("USB", "V"),
    ("DVD", "V"), ("Swimming", "C"), ("Zoom", "C"), ("Lesson", "C"), ("Ball", "R"), ("School", "R"), ("Apple", "V"),
    ("Game", "C"), ("Phone", "C"), ("Book", "C"), ("Music", "C"), ("Computer", "V"), ("Pizza", "V"), ("Bus", "V"),
    ("Milk", "V"), ("Cup", "C"), ("Smile", "R"), ("Piano", "V"), ("Lego", "V"), ("Block", "C"), ("Dance", "V"),
    ("cat", "?"), ("bag", "?"),
    // mixed scripts
    ("3단계", "V"), ("A반", "C"), ("TV 보기", "V"), ("Lego 놀이", "V"), ("피아노 lesson", "C"), ("수학 Book", "C"),
    // punctuation, brackets, spaces
    ("책!", "C"), ("물.", "R"), ("양치하기?", "V"), ("“집”", "C"), ("놀이 ", "V"), ("양치하기 (아침)", "C"),
    ("옷 입기…", "V"), ("[연필]", "R"), ("밥~", "C"),
    // unclear: emoji, Han characters, nothing readable
    ("🦷", "?"), ("양치 🪥", "?"), ("漢", "?"), ("", "?"), ("!!!", "?"),
    // kana
    ("すし", "V"), ("ラーメン", "C"),
]

@Suite struct KoreanParticleTests {
    @Test func tableCoversAtLeastAHundredTitles() {
        #expect(iconLabelSounds.count + templateSounds.count + otherSounds.count >= 100)
    }

    @Test(arguments: iconLabelSounds + templateSounds + otherSounds)
    func finalSoundOfTitle(_ row: (String, Character)) {
        #expect(KoreanParticles.finalSound(of: row.0) == sound(row.1), "title \(row.0)")
    }

    @Test(arguments: iconLabelSounds + templateSounds + otherSounds)
    func particleFormsAgree(_ row: (String, Character)) {
        let (title, code) = row
        let objectForm: String
        let directionForm: String
        let subjectForm: String
        switch code {
        case "V": (objectForm, directionForm, subjectForm) = ("를", "로", "가")
        case "R": (objectForm, directionForm, subjectForm) = ("을", "로", "이")
        case "C": (objectForm, directionForm, subjectForm) = ("을", "으로", "이")
        default: (objectForm, directionForm, subjectForm) = ("을(를)", "(으)로", "이(가)")
        }
        #expect(KoreanParticles.attach(.eulReul, to: title) == title + objectForm)
        #expect(KoreanParticles.attach(.euroRo, to: title) == title + directionForm)
        #expect(KoreanParticles.attach(.iGa, to: title) == title + subjectForm)
    }

    @Test func everyCoreLabelIsCoveredAndClear() {
        let known = Set((iconLabelSounds + templateSounds).map(\.0))
        for icon in BuiltinIcons.all {
            let label = icon.label.values["ko"] ?? ""
            #expect(known.contains(label), "icon label \(label) missing from the table")
            #expect(KoreanParticles.finalSound(of: label) != nil)
        }
        for template in Template.allCases {
            for item in template.items {
                #expect(known.contains(item.title.values["ko"] ?? ""))
            }
        }
    }

    @Test func examplesFromTheSpecification() {
        #expect(KoreanParticles.attach(.eulReul, to: "양치하기") == "양치하기를")
        #expect(KoreanParticles.attach(.eulReul, to: "옷 입기") == "옷 입기를")
        #expect(KoreanParticles.attach(.eulReul, to: "책") == "책을")
        #expect(KoreanParticles.attach(.euroRo, to: "물") == "물로")
        #expect(KoreanParticles.attach(.euroRo, to: "집") == "집으로")
        #expect(KoreanParticles.attach(.euroRo, to: "연필") == "연필로")
        #expect(KoreanParticles.attach(.eulReul, to: "3") == "3을")
        #expect(KoreanParticles.attach(.eulReul, to: "2") == "2를")
    }

    @Test func everyPairHasItsThreeShapes() {
        let expected: [ParticleForm: (String, String, String)] = [
            .eulReul: ("책을", "사과를", "물을"), .iGa: ("책이", "사과가", "물이"), .eunNeun: ("책은", "사과는", "물은"),
            .waGwa: ("책과", "사과와", "물과"), .euroRo: ("책으로", "사과로", "물로"),
            .ieyoYeyo: ("책이에요", "사과예요", "물이에요"), .aYa: ("책아", "사과야", "물아"), .iyeoYeo: ("책이여", "사과여", "물이여"),
        ]
        for form in ParticleForm.allCases {
            guard let row = expected[form] else {
                Issue.record("no expectation for \(form)")
                continue
            }
            #expect(KoreanParticles.attach(form, to: "책") == row.0)
            #expect(KoreanParticles.attach(form, to: "사과") == row.1)
            #expect(KoreanParticles.attach(form, to: "물") == row.2)
        }
    }

    @Test func unclearEndingsUseTheWrittenFallback() {
        let fallbacks = ParticleForm.allCases.map { KoreanParticles.particle($0, after: "🦷") }
        #expect(fallbacks == ["을(를)", "이(가)", "은(는)", "과(와)", "(으)로", "이에요(예요)", "아(야)", "(이)여"])
    }

    @Test(arguments: [
        ("0", "영"), ("1", "일"), ("3", "삼"), ("10", "십"), ("11", "일"), ("20", "십"), ("105", "오"), ("100", "백"),
        ("310", "십"), ("1000", "천"), ("2500", "백"), ("10000", "만"), ("10001", "일"), ("120000", "만"),
        ("100000000", "억"), ("1000000000000", "조"), ("10000000000000000", "경"), ("007", "칠"),
    ])
    func numberReading(_ row: (String, String)) {
        #expect(KoreanNumberReading.lastSyllable(ofInteger: row.0) == row.1)
    }

    @Test func numberReadingRejectsWhatItCannotRead() {
        #expect(KoreanNumberReading.lastSyllable(ofInteger: "") == nil)
        #expect(KoreanNumberReading.lastSyllable(ofInteger: "12a") == nil)
        #expect(KoreanNumberReading.lastSyllable(ofInteger: "1" + String(repeating: "0", count: 20)) == nil)
        #expect(KoreanNumberReading.lastSyllable(ofNumber: "1.2.3") == nil)
        #expect(KoreanNumberReading.lastSyllable(ofNumber: "3.5") == "오")
    }
}
