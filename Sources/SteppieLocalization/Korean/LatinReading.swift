/// How a Latin-script word ends when a Korean speaker reads it aloud, for choosing a particle.
///
/// - A single letter, or an all-capital word of two to four letters (TV, ABC, USB), is spelled:
///   its last letter's Korean name decides (A 에이, L 엘, M 엠, N 엔, R 알 …, see ``letterNames``).
/// - Any other word is matched against ``wordEndings``, longest ending first. An ending listed
///   with `nil` reads differently from word to word (cat 캣 but boat 보트), so the particle falls
///   back to its written form such as 을(를).
public enum LatinReading {
    /// Korean names of the Latin letters, with the final sound of each name.
    public static let letterNames: [Character: (name: String, sound: FinalSound)] = [
        "a": ("에이", .vowel), "b": ("비", .vowel), "c": ("씨", .vowel), "d": ("디", .vowel),
        "e": ("이", .vowel), "f": ("에프", .vowel), "g": ("지", .vowel), "h": ("에이치", .vowel),
        "i": ("아이", .vowel), "j": ("제이", .vowel), "k": ("케이", .vowel), "l": ("엘", .rieul),
        "m": ("엠", .consonant), "n": ("엔", .consonant), "o": ("오", .vowel), "p": ("피", .vowel),
        "q": ("큐", .vowel), "r": ("알", .rieul), "s": ("에스", .vowel), "t": ("티", .vowel),
        "u": ("유", .vowel), "v": ("브이", .vowel), "w": ("더블유", .vowel), "x": ("엑스", .vowel),
        "y": ("와이", .vowel), "z": ("지", .vowel),
    ]

    /// Word endings and the final sound of their usual Korean reading; `nil` marks "unclear".
    /// Ordered from longest to shortest so the first hit is the most specific rule.
    public static let wordEndings: [(ending: String, sound: FinalSound?)] = [
        // three letters
        ("ook", .consonant),  // book 북, cook 쿡
        ("ale", .rieul), ("ile", .rieul), ("ole", .rieul), ("ule", .rieul),  // sale 세일, smile 스마일
        // two letters
        ("ng", .consonant),  // swimming 스위밍, king 킹
        ("ck", .consonant),  // block 블록, snack 스낵
        ("ic", .consonant),  // music 뮤직
        ("me", .consonant),  // game 게임, home 홈
        ("ne", .consonant),  // phone 폰, one 원
        ("ll", .rieul),  // ball 볼
        ("le", .vowel),  // apple 애플, puzzle 퍼즐 (a consonant before -le)
        ("lk", .vowel), ("rk", .vowel), ("sk", .vowel), ("nk", .vowel),  // milk 밀크, park 파크
        ("mp", .vowel), ("lp", .vowel), ("sp", .vowel), ("rp", .vowel),  // jump 점프, help 헬프
        ("rt", .vowel), ("st", .vowel), ("nt", .vowel), ("lt", .vowel), ("ft", .vowel),
        ("ct", .vowel), ("pt", .vowel), ("xt", .vowel),  // chart 차트, test 테스트, tent 텐트
        ("sc", .vowel),  // disc 디스크
        ("sh", .vowel), ("ch", .vowel), ("th", .vowel), ("ph", .vowel),  // brush 브러시, lunch 런치
        // one letter
        ("m", .consonant), ("n", .consonant),  // zoom 줌, lesson 레슨
        ("l", .rieul),  // school 스쿨, pool 풀
        ("p", .consonant),  // cup 컵, shop 숍
        ("a", .vowel), ("e", .vowel), ("i", .vowel), ("o", .vowel), ("u", .vowel), ("y", .vowel),
        ("r", .vowel),  // computer 컴퓨터, car 카
        ("w", .vowel), ("h", .vowel),  // snow 스노, oh 오
        ("s", .vowel), ("x", .vowel), ("z", .vowel),  // bus 버스, box 박스, quiz 퀴즈
        ("d", .vowel), ("f", .vowel), ("v", .vowel),  // bed 베드, golf 골프
        ("t", nil), ("k", nil), ("g", nil), ("b", nil), ("c", nil), ("j", nil), ("q", nil),
    ]

    /// The final sound of a run of Latin letters (`word` holds ASCII letters only), or `nil`
    /// when the reading is unclear.
    public static func finalSound(ofWord word: String) -> FinalSound? {
        guard let last = word.last else { return nil }
        let isSpelled = word.count == 1 || (word.count <= 4 && word.allSatisfy { $0.isUppercase })
        if isSpelled { return letterNames[Character(last.lowercased())]?.sound }
        let lower = word.lowercased()
        for rule in wordEndings where lower.hasSuffix(rule.ending) {
            return rule.sound
        }
        return nil
    }
}
