import SteppieCore
import Testing
@testable import SteppieLocalization

/// What the voice is handed for sentences with times, dates and counts, compared with how people
/// say them. Two paths: catalog templates with typed values (what cues use) and free text (what
/// `steppie say` is given).
@Suite struct SpokenTextTests {
    /// A template, its typed values, and the sentence to be said.
    struct Typed: CustomTestStringConvertible, Sendable {
        let template: String
        let values: [String: MessageValue]
        let expected: String
        var testDescription: String { expected }
    }

    static func t(_ h: Int, _ m: Int) -> MessageValue {
        // Test tables only hold valid times.
        .time(LocalTime(hour: h, minute: m) ?? LocalTime(hour: 0, minute: 0)!)
    }

    static let koreanTyped: [Typed] = [
        Typed(template: "{time}에 시작해요.", values: ["time": t(7, 30)], expected: "일곱 시 삼십 분에 시작해요."),
        Typed(template: "{time}에 시작해요.", values: ["time": t(7, 0)], expected: "일곱 시에 시작해요."),
        Typed(template: "{time}에 시작해요.", values: ["time": t(7, 5)], expected: "일곱 시 오 분에 시작해요."),
        Typed(template: "{time}에 시작해요.", values: ["time": t(19, 30)], expected: "저녁 일곱 시 삼십 분에 시작해요."),
        Typed(template: "{time}에 시작해요.", values: ["time": t(12, 0)], expected: "낮 열두 시에 시작해요."),
        Typed(template: "{time}에 시작해요.", values: ["time": t(0, 15)], expected: "밤 열두 시 십오 분에 시작해요."),
        Typed(template: "{time}에 시작해요.", values: ["time": t(13, 45)], expected: "오후 한 시 사십오 분에 시작해요."),
        Typed(template: "{time}에 시작해요.", values: ["time": t(6, 40)], expected: "여섯 시 사십 분에 시작해요."),
        Typed(template: "{time}에 시작해요.", values: ["time": t(11, 11)], expected: "열한 시 십일 분에 시작해요."),
        Typed(template: "{time}에 시작해요.", values: ["time": t(22, 0)], expected: "밤 열 시에 시작해요."),
        Typed(template: "{time}에 시작해요.", values: ["time": t(4, 30)], expected: "새벽 네 시 삼십 분에 시작해요."),
        Typed(template: "{time}까지 기다려요.", values: ["time": t(9, 59)], expected: "아홉 시 오십구 분까지 기다려요."),
        Typed(template: "{count}개 남았어요", values: ["count": .count(3)], expected: "세 개 남았어요"),
        Typed(template: "{count}개 남았어요", values: ["count": .count(1)], expected: "한 개 남았어요"),
        Typed(template: "{count}개 남았어요", values: ["count": .count(20)], expected: "스무 개 남았어요"),
        Typed(template: "{count}개 남았어요", values: ["count": .count(21)], expected: "스물한 개 남았어요"),
        Typed(template: "{count}개 남았어요", values: ["count": .count(100)], expected: "백 개 남았어요"),
        Typed(template: "{minutes}분 뒤에 {routineTitle|을를} 해요", values: ["minutes": .count(5), "routineTitle": .text("양치하기")],
              expected: "오 분 뒤에 양치하기를 해요"),
        Typed(template: "{minutes}분 뒤, {routineTitle}.", values: ["minutes": .count(10), "routineTitle": .text("아침 먹기")],
              expected: "십 분 뒤, 아침 먹기."),
        Typed(template: "{count}초 안에 되돌릴 수 있어요", values: ["count": .count(5)], expected: "오 초 안에 되돌릴 수 있어요"),
        Typed(template: "{total}개 중 {completed}개 했어요", values: ["total": .count(6), "completed": .count(3)],
              expected: "여섯 개 중 세 개 했어요"),
        Typed(template: "{count}번째 할 일이에요", values: ["count": .count(1)], expected: "첫 번째 할 일이에요"),
        Typed(template: "{count}번째 할 일이에요", values: ["count": .count(2)], expected: "두 번째 할 일이에요"),
        Typed(template: "{count}시간 남았어요", values: ["count": .count(2)], expected: "두 시간 남았어요"),
        Typed(template: "{count}명이 기다려요", values: ["count": .count(4)], expected: "네 명이 기다려요"),
        Typed(template: "{count}살이 됐어요", values: ["count": .count(8)], expected: "여덟 살이 됐어요"),
        Typed(template: "{date}에 시작해요", values: ["date": .date(year: nil, month: 3, day: 8)], expected: "삼월 팔 일에 시작해요"),
        Typed(template: "{date}에 시작해요", values: ["date": .date(year: nil, month: 6, day: 6)], expected: "유월 육 일에 시작해요"),
        Typed(template: "{date}에 시작해요", values: ["date": .date(year: nil, month: 10, day: 10)], expected: "시월 십 일에 시작해요"),
        Typed(template: "{date}에 시작해요", values: ["date": .date(year: 2026, month: 3, day: 8)],
              expected: "이천이십육 년 삼월 팔 일에 시작해요"),
        Typed(template: "{date|은는} 쉬는 날이에요", values: ["date": .date(year: nil, month: 12, day: 25)],
              expected: "십이월 이십오 일은 쉬는 날이에요"),
        Typed(template: "{month}월에 만나요", values: ["month": .count(6)], expected: "유월에 만나요"),
        Typed(template: "{count|이가} 남았어요", values: ["count": .count(3)], expected: "삼이 남았어요"),
        Typed(template: "{routineTitle|을를} 해요", values: ["routineTitle": .text("물 2잔 마시기")], expected: "물 두 잔 마시기를 해요"),
    ]

    static let koreanFree: [(String, String)] = [
        ("07:30에 시작해요", "일곱 시 삼십 분에 시작해요"),
        ("7:05에 일어나요", "일곱 시 오 분에 일어나요"),
        ("오후 3:20에 간식을 먹어요", "오후 세 시 이십 분에 간식을 먹어요"),
        ("3월 8일은 생일이에요", "삼월 팔 일은 생일이에요"),
        ("사과 3개를 먹어요", "사과 세 개를 먹어요"),
        ("7시 30분에 학교에 가요", "일곱 시 삼십 분에 학교에 가요"),
        ("2026-03-08에 만나요", "이천이십육 년 삼월 팔 일에 만나요"),
        ("물 2잔 마시기", "물 두 잔 마시기"),
        ("10분 동안 책 읽기", "십 분 동안 책 읽기"),
        ("양치 3번 하기", "양치 세 번 하기"),
        ("1.5킬로미터 걷기", "일 점 오 킬로미터 걷기"),
        ("12월 25일은 크리스마스", "십이월 이십오 일은 크리스마스"),
        ("6월 6일에 쉬어요", "유월 육 일에 쉬어요"),
        ("2명이 함께 해요", "두 명이 함께 해요"),
        ("오늘은 3가지 할 일이 있어요", "오늘은 세 가지 할 일이 있어요"),
        ("9:00에 아침 먹기", "아홉 시에 아침 먹기"),
        ("21:30에 자요", "밤 아홉 시 삼십 분에 자요"),
        ("12:30에 점심", "낮 열두 시 삼십 분에 점심"),
        ("5층으로 가요", "오 층으로 가요"),
        ("1,000원이에요", "천 원이에요"),
        ("A1 반으로 가요", "A1 반으로 가요"),
        ("방 번호는 15예요", "방 번호는 십오예요"),
        ("3 개 남았어요", "세 개 남았어요"),
        ("2시간 뒤에 만나요", "두 시간 뒤에 만나요"),
        ("10월 3일은 개천절", "시월 삼 일은 개천절"),
        ("30초만 기다려요", "삼십 초만 기다려요"),
        ("1번째 할 일", "첫 번째 할 일"),
        ("8살 민아", "여덟 살 민아"),
        ("20개 모으기", "스무 개 모으기"),
        ("5일째 잘하고 있어요", "오 일째 잘하고 있어요"),
    ]

    static let englishTyped: [Typed] = [
        Typed(template: "We start at {time}.", values: ["time": t(7, 30)], expected: "We start at seven thirty."),
        Typed(template: "We start at {time}.", values: ["time": t(7, 0)], expected: "We start at seven o'clock."),
        Typed(template: "We start at {time}.", values: ["time": t(7, 5)], expected: "We start at seven oh five."),
        Typed(template: "We start at {time}.", values: ["time": t(19, 30)], expected: "We start at seven thirty in the evening."),
        Typed(template: "We start at {time}.", values: ["time": t(12, 0)], expected: "We start at twelve noon."),
        Typed(template: "We start at {time}.", values: ["time": t(0, 0)], expected: "We start at twelve midnight."),
        Typed(template: "We start at {time}.", values: ["time": t(13, 15)], expected: "We start at one fifteen in the afternoon."),
        Typed(template: "We start at {time}.", values: ["time": t(22, 45)], expected: "We start at ten forty-five at night."),
        Typed(template: "{count} activities left", values: ["count": .count(3)], expected: "three activities left"),
        Typed(template: "{count} activities left", values: ["count": .count(21)], expected: "twenty-one activities left"),
        Typed(template: "{count} activities left", values: ["count": .count(100)], expected: "one hundred activities left"),
        Typed(template: "{routineTitle} in {minutes} minutes", values: ["routineTitle": .text("Brush teeth"), "minutes": .count(5)],
              expected: "Brush teeth in five minutes"),
        Typed(template: "It starts on {date}.", values: ["date": .date(year: nil, month: 3, day: 8)], expected: "It starts on March eighth."),
        Typed(template: "It starts on {date}.", values: ["date": .date(year: 2026, month: 3, day: 8)],
              expected: "It starts on March eighth, twenty twenty-six."),
        Typed(template: "It starts on {date}.", values: ["date": .date(year: nil, month: 12, day: 31)], expected: "It starts on December thirty-first."),
        Typed(template: "It starts on {date}.", values: ["date": .date(year: nil, month: 2, day: 22)], expected: "It starts on February twenty-second."),
        Typed(template: "{completed} of {total} done", values: ["completed": .count(2), "total": .count(12)], expected: "two of twelve done"),
    ]

    static let englishFree: [(String, String)] = [
        ("We start at 07:30.", "We start at seven thirty."),
        ("Lunch at 12:15", "Lunch at twelve fifteen in the afternoon"),
        ("Bed at 8:30 pm", "Bed at eight thirty p m"),
        ("Wake up at 6:45 a.m.", "Wake up at six forty-five a m"),
        ("Party on March 8", "Party on March eighth"),
        ("Party on March 8, 2026", "Party on March eighth, twenty twenty-six"),
        ("See you on 2026-03-08", "See you on March eighth, twenty twenty-six"),
        ("Read 3 books", "Read three books"),
        ("The 1st step", "The first step"),
        ("Brush for 2 minutes", "Brush for two minutes"),
        ("Drink 1.5 cups", "Drink one point five cups"),
        ("Walk 1,200 steps", "Walk one thousand two hundred steps"),
        ("Go to room 7B", "Go to room 7B"),
        ("Play at 3pm", "Play at three p m"),
        ("The 22nd of May", "The twenty-second of May"),
        ("Only 10 seconds", "Only ten seconds"),
        ("Wake up at 7:00", "Wake up at seven o'clock"),
    ]

    @Test(arguments: koreanTyped) func koreanTemplates(_ c: Typed) throws {
        let said = MessageFormatter.renderSpoken(try MessageTemplate(parsing: c.template), values: c.values, locale: "ko")
        #expect(said == c.expected)
    }

    @Test(arguments: englishTyped) func englishTemplates(_ c: Typed) throws {
        let said = MessageFormatter.renderSpoken(try MessageTemplate(parsing: c.template), values: c.values, locale: "en")
        #expect(said == c.expected)
    }

    @Test(arguments: koreanFree) func koreanFreeText(_ text: String, _ expected: String) {
        #expect(SpokenText.normalize(text, locale: "ko") == expected)
    }

    @Test(arguments: englishFree) func englishFreeText(_ text: String, _ expected: String) {
        #expect(SpokenText.normalize(text, locale: "en") == expected)
    }

    /// The issue asks for at least 40 Korean and 20 English sentences.
    @Test func enoughSentences() {
        #expect(Self.koreanTyped.count + Self.koreanFree.count >= 40)
        #expect(Self.englishTyped.count + Self.englishFree.count >= 20)
    }

    @Test func numberSystems() {
        #expect(KoreanNumbers.sino(0) == "영")
        #expect(KoreanNumbers.sino(10) == "십")
        #expect(KoreanNumbers.sino(111) == "백십일")
        #expect(KoreanNumbers.sino(10_000) == "만")
        #expect(KoreanNumbers.sino(25_000) == "이만 오천".replacingOccurrences(of: " ", with: ""))
        #expect(KoreanNumbers.sino(100_000_000) == "일억")
        #expect(KoreanNumbers.native(99) == "아흔아홉")
        #expect(KoreanNumbers.native(100) == nil)
        #expect(EnglishNumbers.cardinal(1_000_001) == "one million one")
        #expect(EnglishNumbers.ordinal(30) == "thirtieth")
        #expect(EnglishNumbers.year(2005) == "two thousand five")
        #expect(EnglishNumbers.year(1999) == "nineteen ninety-nine")
    }

    /// The written form is untouched: the screen still shows `07:30` and `3개`.
    @Test func writtenFormsStayAsTheScreenShowsThem() throws {
        let localizer = Localizer(catalogs: try CatalogSet.load(directory: try repositoryLocalization()), systemLocale: nil)
        let values: [String: MessageValue] = ["time": Self.t(7, 30)]
        #expect(localizer.text("tts.setStartsAt", locale: "ko", values: values) == "07:30에 시작해요. 조금만 기다려요.")
        #expect(localizer.spoken("tts.setStartsAt", locale: "ko", values: values) == "일곱 시 삼십 분에 시작해요. 조금만 기다려요.")
        #expect(localizer.spoken("tts.setStartsAt", locale: "en", values: values) == "We start at seven thirty. Let's wait a little.")
        let reminder: [String: MessageValue] = ["routineTitle": .text("Brush teeth"), "minutes": .count(1), "count": .count(1)]
        #expect(localizer.spoken("tts.reminder", locale: "en", values: reminder) == "Brush teeth in one minute")
        #expect(localizer.spoken("tts.reminder", locale: "qps", values: reminder) == "Brush teeth in one minute")
    }
}
