import Foundation
import SteppieCore

/// Draws child mode as text: the current activity large and clear with its icon label, progress,
/// the day's order, the undo countdown, the all-done and waiting screens. Pure, so it is tested as
/// golden text.
struct ChildScreen {
    let text: Messages
    let locale: String
    let color: Bool

    enum Overlay: Equatable {
        case none
        /// The guardian gate after the hidden gesture: PIN entry (digits typed so far) or choices.
        case gate(pinDigits: Int?, message: String?)
    }

    func render(_ state: ChildModeState, child: Child, now: Date, columns: Int, rows: Int, overlay: Overlay = .none) -> [String] {
        let width = max(24, min(columns, 100))
        var lines: [String] = []
        let celebration = Celebration(child.profile.intensity)
        let title = { (r: Routine) in r.title.resolve(chosen: locale, system: nil) }
        let setName = state.plan.set.map { $0.name.resolve(chosen: locale, system: nil) } ?? ""
        let progress = text("child.progress", ["completed": String(state.shownCompleted), "total": String(state.plan.total)])
        let dots = String(repeating: "●", count: state.shownCompleted) + String(repeating: "○", count: max(0, state.plan.total - state.shownCompleted))
        let header = " \(child.displayName) · \(setName)"
        let right = "\(progress)  \(dots) "
        let gap = max(1, width - TextWidth.of(header) - TextWidth.of(right))
        lines.append(TextWidth.truncate(header, to: width - TextWidth.of(right) - 1) + String(repeating: " ", count: gap) + right)
        lines.append("")

        let inner = width - 4
        let kind = state.screenKind(at: now)
        var card: [String] = []
        var cardColor = "sky"
        if case .gate(let digits, let message) = overlay {
            card = ["", bold(text("guardian.title")), ""]
            if let digits {
                card.append(text("guardian.pin.prompt"))
                card.append(String(repeating: "● ", count: digits) + String(repeating: "○ ", count: max(0, 4 - digits)))
            } else {
                card.append(text("child.gate.choices"))
            }
            if let message { card += ["", message] }
            card.append("")
        } else if kind == .empty {
            card = ["", text("child.empty"), ""]
        } else if kind == .waiting, let start = state.plan.set?.startTime {
            card = ["", bold(text("child.waiting.title")), "", text("child.waiting.message", ["time": start.description]), ""]
        } else if kind == .allDone {
            card = [""] + celebration.stars + ["", bold(large(text("child.allDone.title"))), "", text("child.allDone.message"), ""]
        } else if let id = state.focus, let item = state.plan.item(id) {
            // `undo` and `current`: the card in focus (done during the undo window).
            cardColor = CardColor(token: item.routine.colorToken)?.rawValue ?? "sky"
            let done = item.isCompleted || state.saving.map { $0.routineId == id } == true
            card = ["", text(done ? "child.done.label" : "child.current.label"), ""]
            card += done ? celebration.done(title: bold(large(title(item.routine))))
                         : [bold(large(title(item.routine)))]
            card += ["[\(iconLabel(item.routine.icon))]", ""]
            if state.isAllDone { card += celebration.stars + [bold(text("child.allDone.title")), ""] }
        }
        lines.append(" ┌" + String(repeating: "─", count: inner) + "┐")
        for line in card {
            lines.append(" │" + paint(TextWidth.center(line, in: inner), cardColor) + "│")
        }
        lines.append(" └" + String(repeating: "─", count: inner) + "┘")

        // What the child can do now.
        if overlay == .none {
            if let left = state.undoSecondsLeft(at: now) {
                lines.append(TextWidth.center(text("child.undo.countdown", ["count": String(left)]), in: width))
                // Nothing is next on the all-done screen: only the undo of the last one.
                let keys = kind == .allDone ? "U: \(text("child.undo.button"))"
                                            : "U: \(text("child.undo.button"))    N: \(text("child.next.button"))"
                lines.append(TextWidth.center(keys, in: width))
            } else if state.focus != nil && kind != .waiting {
                lines.append(TextWidth.center("Space / Enter: \(text("child.complete.button"))", in: width))
                lines.append("")
            } else {
                lines += ["", ""]
            }
        } else {
            lines += ["", ""]
        }
        switch state.notice {
        case .undoRefused?: lines.append(TextWidth.center("⚠ " + text("child.undo.refused"), in: width))
        case .saveFailed?, .undoFailed?: lines.append(TextWidth.center("⚠ " + text("child.save.failed"), in: width))
        case nil: lines.append("")
        }
        lines.append("")

        // The day's order (read-only).
        let currentId = state.plan.current?.routine.id
        for item in state.plan.items {
            let mark = item.isCompleted ? "✓" : (item.routine.id == currentId ? "▶" : "·")
            let label = item.isCompleted ? text("child.done.label") : (item.routine.id == currentId ? text("child.current.label") : "")
            var line = "  \(mark) \(item.routine.order + 1). \(title(item.routine))"
            if let t = item.routine.scheduledTime { line += "  \(t)" }
            if !label.isEmpty { line += "  (\(label))" }
            lines.append(TextWidth.truncate(line, to: width))
        }
        // Never taller than the terminal: drop the order list from the bottom first.
        if lines.count > rows { lines = Array(lines.prefix(max(rows, 1))) }
        return lines
    }

    /// How a completion is celebrated on the card, by the child's intensity, as the kiosk page
    /// does (`Web/child.js` celebrate()): strong, the big celebration; normal, a check; quiet, a
    /// small check; off, none (the card only says it is done).
    struct Celebration {
        let intensity: FeedbackIntensity

        init(_ intensity: FeedbackIntensity) { self.intensity = intensity }

        /// The lines of a completed card around its (already drawn) title.
        func done(title: String) -> [String] {
            switch intensity {
            case .strong: ["✦ ★ ✦ ★ ✦", "✔ " + title + " ✔", "✦ ★ ✦ ★ ✦"]
            case .normal: ["✓ " + title]
            case .quiet: [title + " ·✓"]
            case .off: [title]
            }
        }

        /// The stars over the all-done message.
        var stars: [String] {
            switch intensity {
            case .strong: ["✦ ★ ✦ ★ ✦ ★ ✦", "★ ★ ★ ★ ★"]
            case .normal: ["★ ★ ★"]
            case .quiet: ["★"]
            case .off: []
            }
        }
    }

    func iconLabel(_ icon: IconRef) -> String {
        switch icon {
        case .builtin(let name): BuiltinIcons.label(of: name)?.resolve(chosen: locale, system: nil) ?? name
        case .photo: text("cli.icon.photo")
        }
    }

    /// Spaced letters read larger on a terminal that has only one font size.
    func large(_ s: String) -> String {
        s.count <= 12 ? s.map(String.init).joined(separator: " ") : s
    }

    func bold(_ s: String) -> String { color ? "\u{1B}[1m" + s + "\u{1B}[22m" : s }

    func paint(_ s: String, _ color: String) -> String {
        guard self.color else { return s }
        let code: Int
        switch color {
        case "mint": code = 158
        case "lemon": code = 229
        case "peach": code = 223
        case "lavender": code = 189
        case "rose": code = 224
        default: code = 153
        }
        return "\u{1B}[48;5;\(code)m\u{1B}[38;5;16m" + s + "\u{1B}[0m"
    }
}
