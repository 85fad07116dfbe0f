import Foundation

/// Ids given on the command line.
enum Ids {
    /// A UUID argument, or a usage error naming the argument.
    static func parse(_ text: String?, argument: String) throws -> UUID {
        guard let text, let id = UUID(uuidString: text) else {
            throw UsageError.invalidValue(option: argument, value: text ?? "", expected: "an id such as 3f2a…-… (see steppie routines)")
        }
        return id
    }
}
