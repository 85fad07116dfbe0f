import Foundation
import SteppieCore

extension PostgresError: CatalogDescribable {
    /// What went wrong, in the reader's words (`postgres.error.*`); the server's own English words
    /// are technical detail (`.detail`), said on the command line and in the log only.
    package var catalogMessage: CatalogMessage {
        switch self {
        case .server(let state, let message, _, _):
            let key: String
            switch state {
            case "23505": key = "postgres.error.duplicate"
            case let s where s.hasPrefix("23"): key = "postgres.error.constraint"
            case "42501": key = "postgres.error.permission"
            case "3D000": key = "postgres.error.noDatabase"
            default: key = "postgres.error.server"
            }
            return CatalogMessage(key, ["sqlState": .detail(state), "reason": .detail(message)])
        case .connect(let message): return CatalogMessage("postgres.error.connect", ["reason": .detail(Self.oneLine(message))])
        case .unavailable(let message): return CatalogMessage("postgres.error.unavailable", ["reason": .detail(Self.oneLine(message))])
        case .poolExhausted(let ms): return CatalogMessage("postgres.error.poolExhausted", ["milliseconds": .text(String(ms))])
        case .unexpectedValue(let column, let expected, _):
            return CatalogMessage("postgres.error.unexpectedValue", ["column": .detail(String(column)), "expected": .detail(expected)])
        case .newerSchema(let id): return CatalogMessage("postgres.error.newerSchema", ["migration": .detail(id)])
        case .invalidParameter(let index): return CatalogMessage("postgres.error.invalidParameter", ["index": .detail(String(index + 1))])
        case .insecureTransport(let host): return CatalogMessage("postgres.error.insecureTransport", ["host": .detail(host)])
        }
    }

    /// For the log: the server's detail and the statement that failed.
    package var logMessage: CatalogMessage {
        switch self {
        case .server(_, _, let detail, let statement):
            catalogMessage.withLogDetail([detail, statement].compactMap { $0 }.joined(separator: " — "))
        case .unexpectedValue(_, _, let statement): catalogMessage.withLogDetail(statement)
        default: catalogMessage
        }
    }

    /// libpq's messages end in a newline and may span several lines.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }
}
