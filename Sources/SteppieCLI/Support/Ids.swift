import Foundation

/// Ids given on the command line.
enum Ids {
    /// A UUID argument, or a usage error naming the argument.
    static func parse(_ text: String?, argument: String) throws -> UUID {
        guard let text, let id = UUID(uuidString: text) else {
            // Declared `RecordId` in the tree, so the parser has refused a malformed one already.
            throw UsageError.refused(option: argument, value: text ?? "", .expected(key: "cli.expected.id"))
        }
        return id
    }
}
