import Foundation
import SteppieCore
import SteppieLocalization
import SteppieStore
import SteppieFiles
import SteppieFeedback

/// The `steppie` program: parse, validate, run one command, and map the outcome to an exit status
/// (0 success, 1 runtime error, 64 usage error).
public enum Steppie {
    public static let exitUsage: Int32 = 64
    public static let exitFailure: Int32 = 1

    /// What a leaf of the command tree runs (`CommandSpec.run`). Guardian commands are wrapped:
    /// `GuardianAccess.changing` ones need guardian mode when a PIN is set, `looking` ones only
    /// extend a running session; the PIN commands manage the session themselves.
    public typealias Handler = @Sendable (Context) throws -> Int32

    /// Runs the process's command line in the live environment.
    public static func main() -> Int32 {
        // A closed pipe must be an error value (EPIPE) that ends the command (see `finish`), not
        // a signal that kills it silently mid-write.
        Descriptor.ignoreBrokenPipe()
        let arguments = Array(CommandLine.arguments.dropFirst())
        // espeak-ng loads and initializes on another core while this process reads its environment,
        // catalogs and arguments, when the command line will surely speak in this process.
        if Prewarm.speaksInProcess(arguments) { SpeechSynthesizer.shared.startInitializing() }
        let (env, problem) = CLIEnvironment.live(arguments: arguments)
        return run(arguments, in: env, startupError: problem)
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
        // `steppie __man` and `__version`, for packaging: outside the tree, so help never lists them (ManPage).
        if let status = ManPage.runHidden(arguments, env: env, text: text) { return status }
        let invocation: Invocation
        do {
            invocation = try CommandTree.parser.parse(arguments)
            if !invocation.wantsHelp { try CommandTree.parser.checkPaths(invocation) }
        } catch {
            env.console.error(ErrorText.usage(error, text))
            env.console.error(text("cli.error.seeHelp", ["command": (["steppie"] + error.path).joined(separator: " ")]))
            return exitUsage
        }
        if invocation.wantsHelp {
            env.console.write(Help.render(path: invocation.path, text: text))
            return finish(0, env.console, text)
        }
        guard let handler = CommandTree.parser.node(at: invocation.path)?.run else {
            env.console.write(Help.render(path: invocation.path, text: text))
            return exitUsage
        }
        let context = Context(env: env, invocation: invocation, text: text)
        let status: Int32
        do {
            status = try handler(context)
        } catch let usage as UsageError {
            env.console.error(ErrorText.usage(usage, text))
            status = exitUsage
        } catch {
            env.console.error(ErrorText.runtime(error, text))
            status = exitFailure
        }
        return finish(status, env.console, text)
    }

    /// The exit status once the output is accounted for: a command whose output could not be
    /// written failed, whatever it did, and says so in one line on the other stream.
    /// A reader that went away (`steppie history | head`) took what it wanted: that ends the
    /// command with status 1 and no line, as a closed pipe ends any other command line tool.
    static func finish(_ status: Int32, _ console: Console, _ text: Messages) -> Int32 {
        guard let failure = console.outputFailure else { return status }
        if case .system(_, _, EPIPE, _) = failure.error {
        } else if failure.standardOutput {
            console.error("steppie: " + text("cli.error.outputFailed", ["target": text("file.target.standardOutput"),
                                                                      "reason": ErrorText.reason(failure.error, text)]))
        }
        return status == 0 ? exitFailure : status
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
