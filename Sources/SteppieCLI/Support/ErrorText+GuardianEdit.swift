import SteppieCore
import SteppieStore
import SteppieLocalization

extension ErrorText {
    /// A refused guardian edit of a set, a past day or an archived child.
    static func guardianEdit(_ e: GuardianEditError, _ t: Messages) -> String {
        func name(_ n: LocalizedText) -> String {
            Validator.printable(n.resolve(chosen: t.locale, system: nil))
        }
        switch e {
        case .activeSetCannotBeDeleted(_, let n): return t("cli.error.activeSetCannotBeDeleted", ["name": name(n)])
        case .emptySetCannotBeActivated(_, let n): return t("cli.error.emptySetCannotBeActivated", ["name": name(n)])
        case .dayInFuture(let day, let today): return t("cli.error.dayInFuture", ["date": day.description, "today": today.description])
        case .dayNotTracked(let routine, let day): return t("cli.error.dayNotTracked", ["routine": routine.lowercased, "date": day.description])
        case .routineOfAnotherChild(let routine, let child):
            return t("cli.error.routineOfAnotherChild", ["routine": routine.lowercased, "child": Validator.printable(child)])
        case .childNotArchived(let child): return t("cli.error.childNotArchived", ["child": Validator.printable(child)])
        }
    }
}
