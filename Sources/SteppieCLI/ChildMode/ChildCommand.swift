import SteppieChildMode
import CTerminal
import Foundation
import Synchronization
import SteppieCore
import SteppieStore
import SteppieService

/// `steppie child`: child mode in the terminal, or driven by `--keys-from` for automation.
enum ChildCommand {
    static func run(_ c: Context) throws -> Int32 {
        let store = try c.store()
        let child = try c.child()
        let keysPath = c.invocation.value("--keys-from") ?? (isatty(STDIN_FILENO) == 1 ? nil : "-")
        let keys = try keysPath.map(KeyScriptReader.init(path:))
        let interactive = keys == nil && isatty(STDOUT_FILENO) == 1
        // The child's language decides the screen, the events and the speech alike; the guardian's
        // (the command's) is kept for the fault lines on standard error.
        let locale = child.profile.locale ?? c.text.locale
        let childText = c.messages(in: locale)
        let events = try c.invocation.value("--events").map {
            try EventLog.open($0, zone: store.timeZone, locale: locale)
        }
        let screen = ChildScreen(text: childText, locale: locale, color: c.env.variables["NO_COLOR"].map(\.isEmpty) ?? true)
        let hasPin = (try store.deviceSettings())?.guardianPinHash != nil
        // A screen in a terminal attaches to the service when one runs on this database: it then
        // shows the service's runtime (the same as every other screen), and the sound is the service's.
        if interactive, c.invocation.value("--events") == nil, c.invocation.value("--output") == nil,
           let client = try ServiceCommands.client(c),
           let remote = RemoteChildMode(client: client, database: ServiceCommands.absolute(store.path), child: child.id.lowercased) {
            return try ChildLoop(runtime: remote, screen: screen, keys: nil, interactive: true, context: c, hasPin: hasPin).run()
        }
        var reported: Set<String> = []
        let report: (String) -> Void = { fault in
            // One line per kind of fault, not one per press.
            if reported.insert(fault).inserted { c.console.error(c.text("cli.child.fault", ["reason": fault])) }
        }
        events?.onFailure = { report(c.text("cli.child.eventsFailed", ["reason": ErrorText.reason($0, c.text)])) }
        // Status lines go to standard output unless a screen or the JSON events are there.
        let (player, closeOutput) = try ChildFeedback.makePlayer(c, child: child, locale: locale,
                                                                 quiet: interactive || c.invocation.value("--events") == "-", report: report)
        defer { closeOutput() }
        let runtime = try ChildModeRuntime(store: store, child: child, clock: c.env.clock, player: player, events: events)
        runtime.onFault = { report(ErrorText.line($0, c.text)) }
        let loop = ChildLoop(runtime: runtime, screen: screen, keys: keys, interactive: interactive, context: c, hasPin: hasPin)
        return try loop.run()
    }
}

/// Stops the loop from a signal handler without shared mutable globals.
final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    func set() { flag.store(true, ordering: .relaxed) }
    var isSet: Bool { flag.load(ordering: .relaxed) }

    /// Turns `signals` into setting this flag (the loop ends and cleans up) instead of ending the
    /// process; keep the returned sources for as long as the loop runs.
    func install(on signals: [Int32]) -> [any DispatchSourceSignal] {
        signals.map { sig in
            signal(sig, SIG_IGN)
            // Inherited blocked signals would never reach the source: a HUP from a closed
            // terminal would leave the loop running with nobody to see it.
            _ = cterminal_unblock_signal(sig)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [self] in set() }
            source.resume()
            return source
        }
    }
}
