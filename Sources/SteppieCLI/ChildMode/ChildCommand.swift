import SteppieChildMode
import CTerminal
import Foundation
import Synchronization
import SteppieCore
import SteppieStore

/// `steppie child`: child mode in the terminal, or driven by `--keys-from` for automation.
enum ChildCommand {
    static func run(_ c: Context) throws -> Int32 {
        let store = try c.store()
        let child = try c.child()
        let keysPath = c.invocation.value("--keys-from") ?? (isatty(STDIN_FILENO) == 1 ? nil : "-")
        let keys = try keysPath.map(KeyScriptReader.init(path:))
        let interactive = keys == nil && isatty(STDOUT_FILENO) == 1
        let events = try c.invocation.value("--events").map {
            try EventLog.open($0, zone: store.timeZone, locale: c.text.locale)
        }
        let locale = child.profile.locale ?? c.text.locale
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
        let screen = ChildScreen(text: c.text, locale: locale, color: c.env.variables["NO_COLOR"].map(\.isEmpty) ?? true)
        let loop = ChildLoop(runtime: runtime, screen: screen, keys: keys, interactive: interactive, context: c,
                             hasPin: (try store.deviceSettings())?.guardianPinHash != nil)
        return try loop.run()
    }
}

/// Stops the loop from a signal handler without shared mutable globals.
final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    func set() { flag.store(true, ordering: .relaxed) }
    var isSet: Bool { flag.load(ordering: .relaxed) }
}
