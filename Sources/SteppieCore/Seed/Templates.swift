/// The builtin routine-set templates every platform of Steppie ships.
public enum Template: String, Sendable, CaseIterable {
    case morning, school, bedtime

    public struct Item: Sendable, Hashable {
        /// Catalog key of the title (`template.morning.wake_up`).
        public let titleKey: String
        public let title: LocalizedText
        public let icon: String
    }

    public var name: LocalizedText {
        switch self {
        case .morning: LocalizedText(ko: "아침 루틴", en: "Morning routine")
        case .school: LocalizedText(ko: "학교 루틴", en: "School routine")
        case .bedtime: LocalizedText(ko: "잠자리 루틴", en: "Bedtime routine")
        }
    }

    public var items: [Item] {
        let rows: [(String, String, String, String)]
        switch self {
        case .morning:
            rows = [("wake_up", "일어나기", "Wake up", "alarm"), ("wash_face", "세수하기", "Wash face", "face-wash"),
                    ("brush_teeth", "양치하기", "Brush teeth", "toothbrush"), ("get_dressed", "옷 입기", "Get dressed", "shirt"),
                    ("eat_breakfast", "아침 먹기", "Eat breakfast", "breakfast"), ("pack_bag", "가방 챙기기", "Pack bag", "backpack")]
        case .school:
            rows = [("go_to_school", "학교 가기", "Go to school", "school"), ("read_book", "책 읽기", "Read book", "book"),
                    ("eat_lunch", "점심 먹기", "Eat lunch", "lunch"), ("play", "놀이하기", "Play", "play")]
        case .bedtime:
            rows = [("take_bath", "목욕하기", "Take a bath", "bathtub"), ("put_on_pajamas", "잠옷 입기", "Put on pajamas", "pajamas"),
                    ("sleep", "잠자기", "Sleep", "bed")]
        }
        return rows.map { Item(titleKey: "template.\(rawValue).\($0.0)", title: LocalizedText(ko: $0.1, en: $0.2), icon: $0.3) }
    }
}
