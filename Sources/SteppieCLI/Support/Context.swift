import Foundation
import SteppieCore
import SteppieLocalization
import SteppieStore

/// What a running command gets: the environment, its text, and the database opened on demand.
public final class Context {
    public let env: CLIEnvironment
    public let invocation: Invocation
    public let text: Messages
    private var openedStore: Store?
    /// Set for commands that only look: the database is opened only if it exists.
    var lookOnly = false

    init(env: CLIEnvironment, invocation: Invocation, text: Messages) {
        self.env = env
        self.invocation = invocation
        self.text = text
    }

    public var console: Console { env.console }
    /// The routine's clock (`STEPPIE_NOW` moves it).
    public var now: Date { env.clock.now() }
    /// The guardian's clock: the PIN backoff and the session (nothing from outside moves it).
    public var secureNow: SecureInstant { env.secureClock.now() }
    public var today: LocalDay { env.today }
    public var json: Bool { invocation.flag("--json") }

    /// The database named by `--db`, `STEPPIE_DB` or the XDG default, opened and migrated once.
    public func store() throws -> Store {
        if let openedStore { return openedStore }
        let s = try Store(path: env.databasePath(option: invocation.value("--db")), timeZone: env.timeZone,
                          mode: lookOnly ? .existingOnly : .create)
        for notice in s.notices { console.error("steppie: " + ErrorText.notice(notice, text)) }
        // Sync stamps read the routine's clock: a device whose clock is wrong is one whose
        // `STEPPIE_NOW` is (docs/sync.md, "Clocks and horizons").
        let clock = env.clock
        s.setSyncClock { clock.now() }
        openedStore = s
        return s
    }

    /// The child named by `--child`, or the only child.
    /// The child `--child` names among the active ones; an archived child's name is said as such.
    public func child() throws -> Child {
        let store = try store()
        let selector = invocation.value("--child")
        do {
            return try store.resolveChild(selector)
        } catch StoreError.childNotFound(let name) {
            if let selector, !selector.isEmpty, let archived = try? store.resolveArchivedChild(selector) {
                throw StoreError.childArchived(archived.displayName)
            }
            throw StoreError.childNotFound(name)
        }
    }

    /// Prints a value as one JSON document: sorted keys (for stable output), pretty, slashes
    /// kept. Every `--json` document goes through here (`JSONGoldenTests` holds their bytes).
    public func printJSON<T: Encodable>(_ value: T) throws {
        console.print(String(decoding: try Self.jsonEncoder.encode(value), as: UTF8.self))
    }

    /// The encoder of `printJSON` and of files the command line writes as JSON.
    static var jsonEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return encoder
    }

    /// The command's text in another language (a child's), with the same fallback rules.
    public func messages(in locale: String) -> Messages {
        guard locale != text.locale, let catalogs = try? env.catalogs.get() else { return text }
        let localizer = Localizer(catalogs: catalogs, environment: env.variables)
        return Messages(locale: locale) { key, args in localizer.text(key, locale: locale, args: args) }
    }

    /// A localized text resolved in the command's language.
    public func resolve(_ t: LocalizedText) -> String {
        t.resolve(chosen: text.locale, system: LocaleFallback.systemLocale(environment: env.variables))
    }
}
