/// The builtin icon names and the label a screen reader or the speech engine reads for each.
public enum BuiltinIcons {
    public struct Icon: Sendable, Hashable {
        public let name: String
        public let label: LocalizedText
    }

    public static func contains(_ name: String) -> Bool { byName[name] != nil }

    public static func label(of name: String) -> LocalizedText? { byName[name]?.label }

    private static let byName: [String: Icon] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    public static let all: [Icon] = table.map { Icon(name: $0.0, label: LocalizedText(ko: $0.1, en: $0.2)) }

    private static let table: [(String, String, String)] = [
        ("sun", "해", "Sun"), ("moon", "달", "Moon"), ("star", "별", "Star"),
        ("alarm", "알람 시계", "Alarm clock"), ("bed", "침대", "Bed"), ("pillow", "베개", "Pillow"),
        ("face-wash", "세수", "Face wash"), ("toothbrush", "칫솔", "Toothbrush"), ("toothpaste", "치약", "Toothpaste"),
        ("towel", "수건", "Towel"), ("soap", "비누", "Soap"), ("shower", "샤워", "Shower"),
        ("bathtub", "욕조", "Bathtub"), ("toilet", "화장실", "Toilet"), ("hand-wash", "손 씻기", "Hand washing"),
        ("comb", "빗", "Comb"), ("shirt", "셔츠", "Shirt"), ("pants", "바지", "Pants"),
        ("socks", "양말", "Socks"), ("shoes", "신발", "Shoes"), ("jacket", "겉옷", "Jacket"),
        ("hat", "모자", "Hat"), ("pajamas", "잠옷", "Pajamas"), ("backpack", "가방", "Backpack"),
        ("breakfast", "아침밥", "Breakfast"), ("lunch", "점심밥", "Lunch"), ("dinner", "저녁밥", "Dinner"),
        ("snack", "간식", "Snack"), ("water", "물", "Water"), ("milk", "우유", "Milk"),
        ("apple", "사과", "Apple"), ("spoon", "숟가락", "Spoon"), ("medicine", "약", "Medicine"),
        ("school", "학교", "School"), ("bus", "버스", "Bus"), ("car", "자동차", "Car"),
        ("walk", "걷기", "Walk"), ("book", "책", "Book"), ("pencil", "연필", "Pencil"),
        ("homework", "숙제", "Homework"), ("computer", "컴퓨터", "Computer"), ("music", "음악", "Music"),
        ("drawing", "그림 그리기", "Drawing"), ("blocks", "블록", "Blocks"), ("ball", "공", "Ball"),
        ("play", "놀이", "Play"), ("puzzle", "퍼즐", "Puzzle"), ("tv", "텔레비전", "TV"),
        ("park", "공원", "Park"), ("bicycle", "자전거", "Bicycle"), ("swim", "수영", "Swimming"),
        ("dog", "강아지", "Dog"), ("cat", "고양이", "Cat"), ("plant", "화분", "Plant"),
        ("clean-up", "정리하기", "Clean up"), ("trash", "쓰레기통", "Trash"), ("laundry", "빨래", "Laundry"),
        ("family", "가족", "Family"), ("friend", "친구", "Friend"), ("hug", "안아 주기", "Hug"),
        ("phone", "전화", "Phone"), ("doctor", "병원", "Doctor"), ("calendar", "달력", "Calendar"),
        ("clock", "시계", "Clock"), ("heart", "하트", "Heart"), ("smile", "웃는 얼굴", "Smile"),
        ("check", "확인", "Check"), ("home", "집", "Home"), ("story", "동화", "Story"),
    ]
}
