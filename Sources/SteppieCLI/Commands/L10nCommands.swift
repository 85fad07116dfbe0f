import Foundation
import SteppieCore
import SteppieFeedback
import SteppieLocalization

/// `steppie l10n check|show|format`: tools for localization testers.
enum L10nCommands {
    /// Checks the catalogs (or a copy given with `--dir`); exit 1 with a listing when anything is wrong.
    static func check(_ c: Context) throws -> Int32 {
        let set: CatalogSet
        if let dir = c.invocation.value("--dir") {
            set = try CatalogSet.load(directory: URL(fileURLWithPath: dir))
        } else {
            set = try catalogs(c).validated()
        }
        let used = try c.invocation.value("--sources").map { try usedKeys(in: URL(fileURLWithPath: $0)) }
        var problems = CatalogChecker.check(set: set, usedKeys: used).map(\.description)
        let lexicons = c.invocation.value("--pronunciation").map { URL(fileURLWithPath: $0) } ?? c.pronunciationDirectory
        if let lexicons {
            do { _ = try PronunciationLexicon.loadAll(directory: lexicons) } catch { problems.append(error.description) }
        }
        if c.json {
            try c.printJSON(CheckReport(problems: problems, keys: set.allKeys.count, locales: set.locales))
        } else if problems.isEmpty {
            c.console.print(c.text("cli.l10n.checkClean", ["count": String(set.allKeys.count), "locales": set.locales.joined(separator: ", ")]))
        } else {
            for p in problems { c.console.print("  " + p) }
            c.console.print(c.text("cli.l10n.checkProblems", ["count": String(problems.count)]))
        }
        return problems.isEmpty ? 0 : Steppie.exitFailure
    }

    /// Prints one key's text in every locale.
    static func show(_ c: Context) throws -> Int32 {
        let key = c.invocation.argument("KEY") ?? ""
        let localizer = Localizer(catalogs: try catalogs(c), environment: c.env.variables)
        let rows = localizer.show(key: key)
        if rows.isEmpty { throw L10nError.unknownKey(key) }
        if c.json {
            try c.printJSON(Dictionary(rows.map { ($0.locale, $0.text) }, uniquingKeysWith: { a, _ in a }) as [String: String])
        } else {
            for row in rows { c.console.print("\(row.locale)\t\(row.text)") }
        }
        return 0
    }

    /// Renders a key or a raw template with arguments (particles and plurals applied).
    static func format(_ c: Context) throws -> Int32 {
        let key = c.invocation.argument("KEY")
        let template = c.invocation.value("--template")
        let args = try arguments(c)
        let localizer = Localizer(catalogs: try catalogs(c), environment: c.env.variables)
        let locale = c.text.locale
        if let key {
            guard localizer.resolve(key, locale: locale) != nil else { throw L10nError.unknownKey(key) }
            c.console.print(localizer.text(key, locale: locale, args: args))
        } else if let template {
            do {
                c.console.print(try localizer.formatChecked(template: template, locale: locale, args: args))
            } catch {
                throw UsageError.invalidValue(option: "--template", value: template, expected: String(describing: error))
            }
        }
        return 0
    }

    /// The `--arg NAME=VALUE` pairs (checked by the parser: `NamedArgument`).
    static func arguments(_ c: Context) throws -> [String: String] {
        var args: [String: String] = [:]
        for pair in c.invocation.allTyped(NamedArgument.self, "--arg") { args[pair.name] = pair.value }
        return args
    }

    static func catalogs(_ c: Context) throws -> CatalogSet {
        try c.env.catalogs.get()
    }

    /// Catalog keys named in Swift sources: quoted literals, and `"prefix.\(` interpolations as `prefix.*`.
    static func usedKeys(in directory: URL) throws -> Set<String> {
        var keys: Set<String> = []
        let literal = try Regex(#""([a-z][a-zA-Z0-9_]*(?:\.[a-zA-Z0-9_]+)+)(\.\\\()?"#)
        guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return keys }
        for case let url as URL in files where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            for match in text.matches(of: literal) {
                guard let name = match.output[1].substring.map(String.init) else { continue }
                keys.insert(match.output[2].substring == nil ? name : name + ".*")
            }
        }
        return keys
    }
}

/// Errors of the localization tools.
enum L10nError: Error, Equatable, CatalogDescribable {
    case unknownKey(String)

    var catalogMessage: CatalogMessage {
        switch self {
        case .unknownKey(let key): CatalogMessage("cli.error.unknownKey", text: ["key": key])
        }
    }
}

extension L10nCommands {
    /// `l10n check --json`.
    struct CheckReport: Encodable {
        let problems: [String]
        let keys: Int
        let locales: [String]
    }
}
