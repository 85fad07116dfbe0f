/// A value that breaks a rule of the data contract: which field, what value, what is allowed.
public struct ContractViolation: Error, Equatable, Sendable, CustomStringConvertible {
    /// A stable rule identifier such as `ttsRate` or `routine.order`, also a catalog key suffix.
    public let field: String
    /// The offending value as text (secrets are never echoed: see `Validator.pin`).
    public let value: String
    /// What would have been accepted, in plain English words (`0.5…1.5`, `3, 5 or 10`): for logs and
    /// `description`. People read `allowedKey` instead when there is one.
    public let allowed: String
    /// The catalog key (`contract.allowed.*`) that says `allowed` in the reader's language; nil when
    /// `allowed` has no words (`0.5…1.5`).
    public let allowedKey: String?
    /// The catalog key (`contract.value.*`) that describes a value not shown as it is (a PIN's
    /// length, "none"); nil: `value` is shown.
    public let valueKey: String?
    /// The arguments of both keys (`max`, `count` …).
    public let arguments: [String: String]

    public init(field: String, value: String, allowed: String, allowedKey: String? = nil, valueKey: String? = nil,
                arguments: [String: String] = [:]) {
        self.field = field
        self.value = value
        self.allowed = allowed
        self.allowedKey = allowedKey
        self.valueKey = valueKey
        self.arguments = arguments
    }

    /// The same rule broken by the same value: the catalog keys only say it in other words.
    public static func == (a: ContractViolation, b: ContractViolation) -> Bool {
        a.field == b.field && a.value == b.value && a.allowed == b.allowed
    }

    public var description: String { "\(field): \(value) is not allowed (allowed: \(allowed))" }
}

extension ContractViolation: CatalogDescribable {
    /// `cli.error.invalid`: the field, the value (or what describes it) and what is allowed, in
    /// the reader's words when there are keys for them.
    public var catalogMessage: CatalogMessage {
        CatalogMessage("cli.error.invalid", ["field": .text(field), "value": valueArgument, "allowed": allowedArgument])
    }

    /// The value as a reader sees it: `valueKey`'s words, else the value made printable.
    public var valueArgument: CatalogMessage.Argument {
        valueKey.map { .message(CatalogMessage($0, text: arguments)) } ?? .text(Validator.printable(value))
    }

    /// What is allowed as a reader sees it: `allowedKey`'s words, else `allowed`.
    public var allowedArgument: CatalogMessage.Argument {
        allowedKey.map { .message(CatalogMessage($0, text: arguments)) } ?? .text(allowed)
    }
}
