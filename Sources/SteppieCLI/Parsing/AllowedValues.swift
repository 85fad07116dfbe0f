import SteppieCore

/// The values an option or argument accepts beyond "any text", declared in the command tree and
/// checked by the parser before any handler runs: a value outside them is a usage mistake (exit 64)
/// naming the option as the user typed it and what it allows (`--undo 7` → "3, 5 or 10").
///
/// Ranges come from `Validator`'s constants, so the command line and the data contract cannot
/// drift apart; handlers still validate (the store is the last line), but a typed value never
/// reaches them out of range.
public struct AllowedValues: Sendable, Equatable {
    /// The shape of the accepted values.
    public enum Kind: Sendable, Equatable {
        /// One of these whole numbers (`--undo 3|5|10`).
        case integers([Int])
        /// A whole number from `min`, up to `max` when given (`--pitch 0…99`, `--position 1…`).
        case integerRange(min: Int, max: Int?)
        static func isDigit(_ c: Character) -> Bool { c.isASCII && c.isNumber }

    /// A finite decimal number in `min...max` (`--tts-rate 0.5…1.5`).
        case decimalRange(min: Double, max: Double)
        /// A 24-hour time `HH:mm`, 00:00…23:59.
        case time
        /// Two different times `HH:mm-HH:mm` (may wrap past midnight).
        case timeSpan
        /// A date `YYYY-MM-DD`.
        case date
        /// A month `YYYY-MM`.
        case month
        /// Up to `maxCount` different whole numbers `min...max`, separated by commas.
        case integerList(min: Int, max: Int, maxCount: Int)
    }

    public let kind: Kind
    /// Words accepted besides (`none`, `default`), shown after the shape.
    public let words: [String]

    public init(_ kind: Kind, or words: [String] = []) {
        self.kind = kind
        self.words = words
    }

    /// True when `value` is one of the words or has the declared shape.
    public func admits(_ value: String) -> Bool {
        if words.contains(value) { return true }
        switch kind {
        case .integers(let allowed):
            return AllowedValues.integer(value).map(allowed.contains) ?? false
        case .integerRange(let min, let max):
            guard let n = AllowedValues.integer(value) else { return false }
            return n >= min && (max.map { n <= $0 } ?? true)
        case .decimalRange(let min, let max):
            guard let v = AllowedValues.decimal(value) else { return false }
            return v >= min && v <= max
        case .time:
            return LocalTime(value) != nil
        case .timeSpan:
            let parts = value.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, let a = LocalTime(parts[0]), let b = LocalTime(parts[1]) else { return false }
            return a != b
        case .date:
            return LocalDay(value) != nil
        case .month:
            return YearMonth(value) != nil
        case .integerList(let min, let max, let maxCount):
            let items = value.split(separator: ",", omittingEmptySubsequences: false)
                .map { AllowedValues.integer(String($0).trimmingCharacters(in: .whitespaces)) }
            guard items.count <= maxCount, items.allSatisfy({ $0 != nil }) else { return false }
            let numbers = items.compactMap { $0 }
            return numbers.allSatisfy { $0 >= min && $0 <= max } && Set(numbers).count == numbers.count
        }
    }

    /// A whole number written with ASCII digits and an optional sign (no `+`, no spaces, no `0x`).
    static func integer(_ text: String) -> Int? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy(AllowedValues.isDigit) else { return nil }
        return Int(text)
    }

    static func isDigit(_ c: Character) -> Bool { c.isASCII && c.isNumber }

    /// A finite decimal number such as `1`, `0.8` or `.5` (no exponent, `inf` or `nan`).
    static func decimal(_ text: String) -> Double? {
        let body = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !body.isEmpty, body.count <= 32, body.allSatisfy({ AllowedValues.isDigit($0) || $0 == "." }),
              body.filter({ $0 == "." }).count <= 1, body.contains(where: AllowedValues.isDigit) else { return nil }
        return Double(text).flatMap { $0.isFinite ? $0 : nil }
    }
}

extension AllowedValues {
    /// `--undo`: the contract's undo windows.
    static let undoSeconds = AllowedValues(.integers(Validator.undoDurations))
    static let ttsRate = AllowedValues(.decimalRange(min: Validator.ttsRateRange.lowerBound, max: Validator.ttsRateRange.upperBound))
    static let unitVolume = AllowedValues(.decimalRange(min: Validator.ttsVolumeRange.lowerBound, max: Validator.ttsVolumeRange.upperBound))
    static let volumeCap = AllowedValues(.decimalRange(min: Validator.volumeCapRange.lowerBound, max: Validator.volumeCapRange.upperBound))
    static let pitch = AllowedValues(.integerRange(min: Validator.pitchRange.lowerBound, max: Validator.pitchRange.upperBound))
    static let leadTimes = AllowedValues(.integerList(min: Validator.leadTimeRange.lowerBound, max: Validator.leadTimeRange.upperBound,
                                                      maxCount: Validator.maxLeadTimes), or: ["none"])
    static let quietHours = AllowedValues(.timeSpan, or: ["none"])
    /// A position in a set, counted from 1 as `steppie routines` shows it.
    static let position = AllowedValues(.integerRange(min: 1, max: nil))
    static let time = AllowedValues(.time)
    static let timeOrNone = AllowedValues(.time, or: ["none"])
    static let date = AllowedValues(.date)
    static let month = AllowedValues(.month)
}
