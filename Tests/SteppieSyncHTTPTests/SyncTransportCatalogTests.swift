import Foundation
import SteppieCore
import SteppieLocalization
import SteppieSync
import SteppieSyncHTTP
import Testing

/// Every transport error and every refusal has its own sentence in both catalogs, with nothing
/// left unfilled; addresses and library words are detail (never on the guardian pages).
@Suite struct SyncTransportCatalogTests {
    static let samples: [SyncTransportError] = [
        .invalidAddress("htps://hub"), .unreachable(address: "192.168.1.20:8471", reason: "Connection refused"),
        .tlsFailed(address: "192.168.1.20:8471", reason: "gnutls_handshake: GNUTLS_E_PREMATURE_TERMINATION"),
        .fingerprintMismatch(expected: "AB:CD", got: "EF:01"), .timeout(.connect), .timeout(.handshake), .timeout(.request),
        .responseTooLarge(limit: 8_388_608), .badResponse(reason: "status line"), .httpStatus(404),
        .refused(.protocolVersion(hub: 1, device: 2)), .refused(.protocolVersion(hub: 2, device: 1)),
        .refused(.clockSkew(offsetMilliseconds: 360_000)), .refused(.clockSkew(offsetMilliseconds: -400_000)),
        .refused(.unknownDevice), .refused(.childNotGiven(child: "d2c1b0a9-8f7e-4d6c-9b5a-493827161504")),
        .refused(.malformed(reason: "unknown field")), .refused(.gap(expected: 42)), .refused(.tooLarge),
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
                #expect(!line.contains("{") && !line.contains("⟦") && !line.isEmpty, "\(locale): \(line)")
            }
        }
        // Each sample says something of its own (no two cases share a sentence by mistake).
        #expect(seen.count == Self.samples.count)
        #expect(CatalogRenderer(localizer: localizer, locale: "en").say(SyncTransportError.refused(.protocolVersion(hub: 1, device: 2)).catalogMessage)
            .contains("update Steppie on the hub"))
        #expect(CatalogRenderer(localizer: localizer, locale: "en").say(SyncTransportError.refused(.clockSkew(offsetMilliseconds: -400_000)).catalogMessage)
            .contains("6 min 40 s behind the hub's"))
    }

    @Test func addressesAndLibraryWordsAreDetail() {
        for error in Self.samples {
            switch error {
            case .unreachable, .tlsFailed, .badResponse, .refused(.childNotGiven), .refused(.malformed):
                #expect(error.catalogMessage.revealsDetail, "\(error)")
            default:
                #expect(!error.catalogMessage.revealsDetail, "\(error)")
            }
        }
    }
}
