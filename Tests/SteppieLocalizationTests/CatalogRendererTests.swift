import SteppieCore
import SteppieLocalization
import Testing

/// The one renderer of catalog messages: nested messages in the same language first, names in
/// the reader's language, particles agreeing with what was filled in.
@Suite struct CatalogRendererTests {
    static func localizer() throws -> Localizer {
        func text(_ s: String) throws -> CatalogEntry { .text(try MessageTemplate(parsing: s)) }
        let en = Catalog(locale: "en", entries: [
            "e.outer": try text("cannot use {path}: {reason}"), "e.inner": try text("{reason} ({operation})"),
            "e.full": try text("the disk is full"), "e.set": try text("{name} is the active set"),
            "message.then": try text("{first} {second}"),
        ])
        let ko = Catalog(locale: "ko", entries: [
            "e.outer": try text("쓸 수 없어요: {path} ({reason})"), "e.inner": try text("{reason} ({operation})"),
            "e.full": try text("디스크가 가득 찼어요"), "e.set": try text("{name|은는} 사용 중인 세트예요"),
            "message.then": try text("{first} {second}"),
        ])
        return Localizer(catalogs: CatalogSet([en, ko]), systemLocale: nil)
    }

    @Test func nestedMessagesAndNamesAreSaidInTheSameLanguage() throws {
        let l = try Self.localizer()
        let failed = CatalogMessage("e.outer", ["path": .detail("/srv/x"),
                                                "reason": .message(CatalogMessage("e.inner", ["operation": .detail("open"),
                                                                                              "reason": .message(CatalogMessage("e.full"))]))])
        #expect(l.text(failed, locale: "en") == "cannot use /srv/x: the disk is full (open)")
        #expect(l.text(failed, locale: "ko") == "쓸 수 없어요: /srv/x (디스크가 가득 찼어요 (open))")
        #expect(failed.revealsDetail)

        let set = CatalogMessage("e.set", ["name": .name(LocalizedText(ko: "아침", en: "Morning\u{7}"))])
        #expect(l.text(set, locale: "en") == "Morning\\u{7} is the active set", "a name is made printable")
        #expect(l.text(set, locale: "ko") == "아침은 사용 중인 세트예요")
        #expect(!set.revealsDetail)
        #expect(l.text(set.then(CatalogMessage("e.full")), locale: "ko") == "아침은 사용 중인 세트예요 디스크가 가득 찼어요")
    }

    @Test func anErrorWithoutAMessageIsNamedByItsTypeOnly() {
        struct Opaque: Error { let secret = "/home/guardian/private" }
        let m = CatalogMessage(describing: Opaque())
        #expect(m == CatalogMessage("cli.error.unexpected", ["kind": .text("Opaque")]))
        #expect(CatalogMessage.log(Opaque()) == m)
    }
}
