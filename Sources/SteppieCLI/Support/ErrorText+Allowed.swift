import SteppieCore

extension ErrorText {
    /// What an option or argument allows, in the user's language (`3, 5 or 10`, `a number 0.5…1.5`).
    static func allowed(_ a: AllowedValues, _ t: Messages) -> String {
        let shape: String
        switch a.kind {
        case .integers(let values): shape = oneOf(values.map(String.init), t)
        case .integerRange(let min, let max?): shape = t("cli.allowed.integerRange", ["min": String(min), "max": String(max)])
        case .integerRange(let min, nil): shape = t("cli.allowed.integerAtLeast", ["min": String(min)])
        case .decimalRange(let min, let max): shape = t("cli.allowed.decimalRange", ["min": String(min), "max": String(max)])
        case .time: shape = t("cli.allowed.time")
        case .timeSpan: shape = t("cli.allowed.timeSpan")
        case .date: shape = t("cli.allowed.date")
        case .month: shape = t("cli.allowed.month")
        case .integerList(let min, let max, let maxCount):
            shape = t("cli.allowed.integerList", ["count": String(maxCount), "min": String(min), "max": String(max)])
        }
        guard !a.words.isEmpty else { return shape }
        return t("cli.allowed.orWords", ["allowed": shape, "words": oneOf(a.words, t)])
    }

    /// `a, b or c` (English), `a, b, c 중 하나` (Korean); a single value as is.
    static func oneOf(_ values: [String], _ t: Messages) -> String {
        guard let last = values.last, values.count > 1 else { return values.first ?? "" }
        return t("cli.allowed.oneOf", ["list": values.dropLast().joined(separator: ", "), "last": last])
    }
}
