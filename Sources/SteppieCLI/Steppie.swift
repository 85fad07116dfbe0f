import Foundation
import SteppieCore
import SteppieLocalization
import SteppieStore

/// The `steppie` program: parse, validate, run one command, and map the outcome to an exit status
/// (0 success, 1 runtime error, 64 usage error).
public enum Steppie {
    public static let exitUsage: Int32 = 64
    public static let exitFailure: Int32 = 1

    public typealias Handler = @Sendable (Context) throws -> Int32

    /// Every runnable command path and its handler, by area.
    static let handlers: [String: Handler] = basicHandlers
        .merging(guardianHandlers) { a, _ in a }
        .merging(feedbackHandlers) { a, _ in a }
        .merging(backupHandlers) { a, _ in a }

    static let basicHandlers: [String: Handler] = [
        "init": InitCommand.run,
        "routines": TodayCommands.routines,
        "today": TodayCommands.today,
        "complete": TodayCommands.complete,
        "undo": TodayCommands.undo,
        "icons": TodayCommands.icons,
        "child": ChildCommand.run,
        "l10n check": L10nCommands.check,
        "l10n show": L10nCommands.show,
        "l10n render": L10nRenderCommand.run,
        "l10n format": L10nCommands.format,
    ]

    /// Runs the process's command line in the live environment.
    public static func main() -> Int32 {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            return run(arguments, in: try CLIEnvironment.live(arguments: arguments))
        } catch let usage as UsageError {
            let env = CLIEnvironment(variables: ProcessInfo.processInfo.environment, console: .standard(), clock: RunningClock(),
                                     timeZone: .current, dataDirectory: nil, executablePath: "")
            return run(arguments, in: env, startupError: usage)
        } catch {
            FileHandle.standardError.write(Data("steppie: \(error)\n".utf8))
            return exitFailure
        }
    }

    /// Runs one command line in `env`.
    public static func run(_ arguments: [String], in env: CLIEnvironment, startupError: UsageError? = nil) -> Int32 {
        let locale = chosenLocale(arguments, env)
        let catalogs: CatalogSet
        switch env.catalogs {
        case .success(let set): catalogs = set
        case .failure(let error):
            // Without catalogs there is no translated text to show: say so plainly.
            env.console.error("steppie: cannot load the message catalogs: \(error)")
            return exitFailure
        }
        let localizer = Localizer(catalogs: catalogs, environment: env.variables)
        let text = Messages(locale: locale) { key, args in localizer.text(key, locale: locale, args: args) }
        if let startupError {
            env.console.error(ErrorText.usage(startupError, text))
            return exitUsage
        }
        let invocation: Invocation
        do {
            invocation = try CommandTree.parser.parse(arguments)
        } catch {
            env.console.error(ErrorText.usage(error, text))
            env.console.error(text("cli.error.seeHelp", ["command": (["steppie"] + error.path).joined(separator: " ")]))
            return exitUsage
        }
        if invocation.wantsHelp {
            env.console.write(Help.render(path: invocation.path, text: text))
            return 0
        }
        guard let handler = handlers[invocation.path.joined(separator: " ")] else {
            env.console.write(Help.render(path: invocation.path, text: text))
            return exitUsage
        }
        let context = Context(env: env, invocation: invocation, text: text)
        do {
            return try handler(context)
        } catch let usage as UsageError {
            env.console.error(ErrorText.usage(usage, text))
            return exitUsage
        } catch {
            env.console.error(ErrorText.runtime(error, text))
            return exitFailure
        }
    }

    /// The language of the command's own text: `--locale`, then the system locale, then Korean.
    static func chosenLocale(_ arguments: [String], _ env: CLIEnvironment) -> String {
        var chosen: String?
        for (i, a) in arguments.enumerated() {
            if a == "--locale", i + 1 < arguments.count { chosen = arguments[i + 1] }
            if a.hasPrefix("--locale=") { chosen = String(a.dropFirst(9)) }
        }
        let chain = LocaleFallback.chain(chosen: chosen, system: LocaleFallback.systemLocale(environment: env.variables))
        if let first = chain.first, PseudoLocale.isPseudo(first) { return first }
        let supported = ["ko", "en"]
        return chain.map(LocaleFallback.language).first(where: supported.contains) ?? LocaleFallback.defaultLanguage
    }
}

extension UsageError {
    /// The command path the error belongs to, for the "see --help" hint.
    var path: [String] {
        switch self {
        case .unknownCommand(_, let p), .missingCommand(let p), .unknownOption(_, let p): return p
        default: return []
        }
    }
}
