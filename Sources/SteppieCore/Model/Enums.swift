/// Whether a routine was done on a day.
public enum LogStatus: String, Sendable, Codable, CaseIterable {
    case completed, undone
}

/// How strongly a child's feedback is expressed, over every channel.
public enum FeedbackIntensity: String, Sendable, Codable, CaseIterable, Comparable {
    case strong, normal, quiet, off

    private var rank: Int {
        switch self { case .strong: 3; case .normal: 2; case .quiet: 1; case .off: 0 }
    }
    public static func < (a: Self, b: Self) -> Bool { a.rank < b.rank }
}

/// Who is using the device.
public enum Mode: String, Sendable, Codable, CaseIterable {
    case child, guardian
}

/// The card colors of the design tokens; stored as `color.card.<name>`.
public enum CardColor: String, Sendable, Codable, CaseIterable {
    case sky, mint, lemon, peach, lavender, rose

    public var token: String { "color.card.\(rawValue)" }

    public init?(token: String) {
        guard token.hasPrefix("color.card."), let c = CardColor(rawValue: String(token.dropFirst(11))) else { return nil }
        self = c
    }

    /// The color of the card at `index` when cards cycle through the palette.
    public static func cycling(_ index: Int) -> CardColor { allCases[index % allCases.count] }
}
