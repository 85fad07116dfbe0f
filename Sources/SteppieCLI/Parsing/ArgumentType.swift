/// A value whose shape is more than a closed set or a range (an address, a button device): the
/// command tree names its type, the parser turns the text into it before any handler runs, and a
/// handler reads the typed value back (`Invocation.typed`). The `ExpressibleByArgument` idea: a
/// usage mistake is always found before the first file is opened or created (exit 64).
public protocol ArgumentValue: Sendable {
    /// The value the text names, or why it is refused.
    static func parse(argument text: String) -> Result<Self, ArgumentRefusal>
}

/// Why a value was refused, said through the catalog by `ErrorText` in the user's language.
public enum ArgumentRefusal: Error, Equatable, Sendable {
    /// "… expected <text of key>" (`cli.error.invalidValue`).
    case expected(key: String)
    /// "… <reason>" (`cli.error.refusedValue`), the reason being a catalog key and its arguments.
    case reason(key: String, arguments: [String: String])
}

/// The type of an option's value as the command tree declares it: compared by name, checked by
/// the type's own `parse`.
public struct ArgumentType: Sendable, Equatable {
    public let name: String
    let check: @Sendable (String) -> ArgumentRefusal?

    public static func of<T: ArgumentValue>(_ type: T.Type) -> ArgumentType {
        ArgumentType(name: String(reflecting: type)) { text in
            if case .failure(let refusal) = T.parse(argument: text) { return refusal }
            return nil
        }
    }

    public static func == (a: ArgumentType, b: ArgumentType) -> Bool { a.name == b.name }
}

extension Invocation {
    /// The typed value of `option` (its last value), already checked by the parser; nil when absent.
    /// A positional argument's name (`ROUTINE-ID`) reads the argument.
    public func typed<T: ArgumentValue>(_ type: T.Type, _ option: String) -> T? {
        (value(option) ?? argument(option)).flatMap { try? T.parse(argument: $0).get() }
    }

    /// Every typed value of a repeatable `option`, in order.
    public func allTyped<T: ArgumentValue>(_ type: T.Type, _ option: String) -> [T] {
        values(option).compactMap { try? T.parse(argument: $0).get() }
    }
}
