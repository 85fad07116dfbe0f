/// A value that breaks a rule of the data contract: which field, what value, what is allowed.
public struct ContractViolation: Error, Equatable, Sendable, CustomStringConvertible {
    /// A stable rule identifier such as `ttsRate` or `routine.order`, also a catalog key suffix.
    public let field: String
    /// The offending value as text (secrets are never echoed: see `Validator.pin`).
    public let value: String
    /// What would have been accepted, in plain words (`0.5…1.5`, `3, 5 or 10`).
    public let allowed: String

    public init(field: String, value: String, allowed: String) {
        self.field = field
        self.value = value
        self.allowed = allowed
    }

    public var description: String { "\(field): \(value) is not allowed (allowed: \(allowed))" }
}
