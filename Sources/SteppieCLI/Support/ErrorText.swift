import SteppieCore
import SteppieStore
import SteppieFiles

/// Turns error values into one line of text in the user's language (usage errors here; every
/// other error through its own `catalogMessage`).
enum ErrorText {
    static func usage(_ e: UsageError, _ t: Messages) -> String {
        let line: String
        switch e {
        case .unknownCommand(let c, let p): line = t("cli.error.unknownCommand", ["command": Validator.printable(c), "parent": (["steppie"] + p).joined(separator: " ")])
        case .missingCommand(let p): line = t("cli.error.missingCommand", ["parent": (["steppie"] + p).joined(separator: " ")])
        case .unknownOption(let o, _): line = t("cli.error.unknownOption", ["option": Validator.printable(o)])
        case .missingValue(let o): line = t("cli.error.missingValue", ["option": o])
        case .invalidChoice(let o, let v, let c): line = t("cli.error.invalidChoice", ["option": o, "value": Validator.printable(v), "choices": c.joined(separator: ", ")])
        case .repeatedOption(let o): line = t("cli.error.repeatedOption", ["option": Validator.printable(o)])
        case .unexpectedArgument(let a): line = t("cli.error.unexpectedArgument", ["argument": Validator.printable(a)])
        case .missingArgument(let a): line = t("cli.error.missingArgument", ["argument": a])
        case .notAllowed(let o, let v, let a): line = t("cli.error.notAllowed", ["option": o, "value": Validator.printable(v), "allowed": allowed(a, t)])
        case .invalidValue(let o, let v, let x): line = t("cli.error.invalidValue", ["option": o, "value": Validator.printable(v), "expected": x])
        case .refusedValue(let o, let v, let r): line = t("cli.error.refusedValue", ["option": o, "value": Validator.printable(v), "reason": r])
        case .refused(let o, let v, .expected(let key)):
            line = t("cli.error.invalidValue", ["option": o, "value": Validator.printable(v), "expected": t(key)])
        case .refused(let o, let v, .reason(let key, let arguments)):
            line = t("cli.error.refusedValue", ["option": o, "value": Validator.printable(v), "reason": t(key, arguments)])
        case .conflictingOptions(let a, let b): line = t("cli.error.conflictingOptions", ["first": a, "second": b])
        case .requiresOption(let a, let b): line = t("cli.error.requiresOption", ["first": a, "second": b])
        case .unusablePath(let o, let refusal): line = o + ": " + t(refusal.catalogMessage)
        }
        return "steppie: " + line
    }

    static func runtime(_ error: any Error, _ t: Messages) -> String {
        "steppie: " + line(error, t)
    }

    /// A runtime error as one sentence, without the program name (for notices inside child mode):
    /// the error's own catalog message (`CatalogDescribable`, next to each error type), said by
    /// the one renderer; an error without one is named by its type only (`cli.error.unexpected`):
    /// its description is English and would break a Korean sentence.
    static func line(_ error: any Error, _ t: Messages) -> String {
        t(CatalogMessage(describing: error))
    }

    /// Why a file operation failed, without the path (when the sentence names the target itself).
    static func reason(_ e: FileRefusal, _ t: Messages) -> String {
        t(e.reasonMessage)
    }

    /// A notice from the store, said once.
    static func notice(_ n: StoreNotice, _ t: Messages) -> String {
        switch n {
        case .permissionsTightened(let path, let from):
            return t("cli.notice.permissionsTightened", ["path": Validator.printable(path), "mode": String(from, radix: 8)])
        }
    }
}
