/// A Korean counter word (개, 시, 분, 월 …) and the number system said in front of it.
public struct KoreanCounter: Sendable, Hashable {
    /// Which numbers go in front of the counter.
    public enum System: Sendable, Hashable {
        /// Native Korean up to 99 (한 개, 일곱 시, 스무 살), Sino-Korean from 100.
        case native
        /// Sino-Korean (오 분, 팔 일, 삼 층).
        case sino
        /// Month names, written together with 월 (삼월, 유월, 시월).
        case month
    }

    public let word: String
    public let system: System

    /// Counters in longest-first order, so `시간` wins over `시` and `번째` over `번`.
    public static let all: [KoreanCounter] = {
        let native = ["개", "시", "시간", "번", "번째", "명", "살", "가지", "마리", "권", "잔", "장", "벌", "켤레",
                      "달", "사람", "군데", "송이", "그릇", "숟가락", "조각", "줄", "곡", "바퀴", "걸음", "대", "병", "판"]
        let sino = ["분", "초", "일", "일째", "년", "주", "주일", "개월", "층", "원", "퍼센트", "단계", "회", "학년",
                    "교시", "도", "점", "쪽", "페이지", "호", "등", "킬로미터", "미터", "센티미터", "킬로그램", "그램", "리터"]
        let all = native.map { KoreanCounter(word: $0, system: .native) }
            + sino.map { KoreanCounter(word: $0, system: .sino) }
            + [KoreanCounter(word: "월", system: .month)]
        return all.sorted { $0.word.count > $1.word.count }
    }()

    /// The counter `text` starts with, if any (`개 남았어요` → 개, `시간 뒤` → 시간).
    public static func prefix(of text: Substring) -> KoreanCounter? {
        all.first { text.hasPrefix($0.word) }
    }
}
