/// Why a `--button PATH[:OPTIONS]` value (or a `--map`) was refused; each case names the part that was wrong.
public enum ButtonSpecError: Error, Equatable, Sendable {
    /// Nothing before the options: the device path is missing.
    case emptyPath
    /// An item that is neither `KEY=ACTION`, `grab` nor `debounce=…` (an empty item is `""`).
    case unknownItem(String)
    /// A key that is neither a known name (`KEY_ENTER`) nor a code in 1…767.
    case unknownKey(String)
    /// An action other than done, undo or next.
    case unknownAction(key: String, action: String)
    /// The same key mapped twice (named once by name and once by number counts too).
    case duplicateKey(String)
    /// `grab` or `debounce=` given twice.
    case duplicateOption(String)
    /// A debounce that is not `0`, `off`, `<n>ms` or `<n>s` between 0 and 5 s.
    case badDebounce(String)
    /// `grab` or `debounce=` inside a map given alone (`buttons add --map`), which has options for them.
    case optionInMap(String)

    /// The catalog key of the message (`Localization/*/buttons.json`).
    public var catalogKey: String {
        switch self {
        case .emptyPath: "button.spec.emptyPath"
        case .unknownItem: "button.spec.unknownItem"
        case .unknownKey: "button.spec.unknownKey"
        case .unknownAction: "button.spec.unknownAction"
        case .duplicateKey: "button.spec.duplicateKey"
        case .duplicateOption: "button.spec.duplicateOption"
        case .badDebounce: "button.spec.badDebounce"
        case .optionInMap: "button.spec.optionInMap"
        }
    }

    /// The message's placeholders.
    public var arguments: [String: String] {
        switch self {
        case .emptyPath: [:]
        case .unknownItem(let item), .optionInMap(let item): ["item": item]
        case .unknownKey(let key): ["key": key]
        case .unknownAction(let key, let action): ["key": key, "action": action]
        case .duplicateKey(let key): ["key": key]
        case .duplicateOption(let option): ["option": option]
        case .badDebounce(let value): ["value": value]
        }
    }
}
