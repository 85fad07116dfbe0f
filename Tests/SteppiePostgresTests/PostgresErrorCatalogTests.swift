import Foundation
import SteppieCore
import SteppieLocalization
import Testing
@testable import SteppiePostgres

/// Every `PostgresError` says itself in English and Korean; the server's and libpq's own words are
/// technical detail (the command line and the log say them, the pages never). No database needed.
@Suite struct PostgresErrorCatalogTests {
    static let samples: [PostgresError] = [
        .server(sqlState: "23505", message: "duplicate key value violates unique constraint \"events_pkey\"", detail: "Key (id)=(e1) already exists.",
                statement: "INSERT …"),
        .server(sqlState: "23514", message: "new row violates check constraint", detail: nil, statement: "INSERT …"),
        .server(sqlState: "42501", message: "permission denied for table events", detail: nil, statement: "DELETE …"),
        .server(sqlState: "3D000", message: "database \"steppie\" does not exist", detail: nil, statement: "connect"),
        .server(sqlState: "22012", message: "division by zero", detail: nil, statement: "SELECT 1/0"),
        .connect(message: "connection to server on socket \"/run/postgresql/.s.PGSQL.5432\" failed: No such file or directory\n"),
        .unavailable(message: "server closed the connection unexpectedly\n\tThis probably means the server terminated abnormally\n"),
        .poolExhausted(waitedMilliseconds: 5000),
        .unexpectedValue(column: 2, expected: "an integer", statement: "SELECT …"),
        .newerSchema(migration: "2027-01-hub-v2"),
        .invalidParameter(index: 0),
        .insecureTransport(host: "db.centre.example"),
    ]

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func everyErrorHasItsSentenceInBothLanguages() throws {
        let catalogs = try CatalogSet.load(directory: Self.repository.appendingPathComponent("Localization"))
        let localizer = Localizer(catalogs: catalogs, systemLocale: nil)
        var seen: Set<String> = []
        for error in Self.samples {
            let message = error.catalogMessage
            seen.insert(message.key)
            for locale in ["en", "ko"] {
                let catalog = try #require(catalogs[locale])
                #expect(catalog[message.key] != nil, "\(locale): \(message.key)")
                let line = CatalogRenderer(localizer: localizer, locale: locale).say(message)
                #expect(!line.contains("{") && !line.contains("⟦") && !line.isEmpty && !line.contains("\n"), "\(locale): \(line)")
            }
        }
        #expect(seen.count == Self.samples.count)
        let en = CatalogRenderer(localizer: localizer, locale: "en")
        #expect(en.say(Self.samples[0].catalogMessage).contains("events_pkey"))
        #expect(en.say(Self.samples[6].catalogMessage).contains("server closed the connection unexpectedly This probably"))
    }

    @Test func theServersWordsAreDetailAndRetryingIsForPassingTrouble() {
        for error in Self.samples {
            switch error {
            case .poolExhausted: #expect(!error.catalogMessage.revealsDetail, "\(error)")
            default: #expect(error.catalogMessage.revealsDetail, "\(error)")
            }
        }
        #expect(Self.samples.filter(\.isRetryable).map(\.catalogMessage.key)
                == ["postgres.error.connect", "postgres.error.unavailable", "postgres.error.poolExhausted"])
        #expect(PostgresError.server(sqlState: "40001", message: "", detail: nil, statement: "").isRetryable)
        #expect(PostgresError.server(sqlState: "40P01", message: "", detail: nil, statement: "").isRetryable)
        #expect(PostgresError.server(sqlState: "23505", message: "", detail: nil, statement: "").sqlState == "23505")
        #expect(PostgresError.connect(message: "").sqlState == nil)
        #expect(PostgresError.endsSession("08006") && PostgresError.endsSession("57P01") && !PostgresError.endsSession("23505"))
    }
}
