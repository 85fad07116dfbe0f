import Foundation
import SteppieCore

/// What the child's page draws, built from the runtime's state (docs/kiosk.md): the screen, the
/// cards, the undo window and every word in the child's language. Encoded fresh for each client,
/// so the undo countdown is right whenever a page connects.
public struct KioskScreen: Sendable, Equatable {
    public struct ChildInfo: Encodable, Sendable, Equatable {
        public var id: String
        public var name: String
        public var locale: String
        /// The child's picture on the picker (named by the child's name for screen readers).
        public var picture: Icon
    }

    public struct Icon: Encodable, Sendable, Equatable {
        public var type: String
        public var name: String?
        public var url: String?
        public var label: String
    }

    public struct Card: Encodable, Sendable, Equatable {
        public var id: String
        public var title: String
        public var icon: Icon
        public var color: String
        public var done: Bool
        public var current: Bool
    }

    public var child: ChildInfo
    public var screen: ChildScreenKind
    public var completed: Int
    public var total: Int
    public var items: [Card]
    public var focus: Card?
    public var undoDeadline: Date?
    public var undoSeconds: Int
    public var waitingUntil: String?
    public var intensity: String
    public var labels: [String: String]
    /// Why the last tap changed nothing, when a save failed (`saveFailed`, `undoFailed`): the
    /// page shows the gentle "not saved" words, as the terminal and the socket say it.
    public var notice: Notice?

    /// A save that failed, for the page's gentle "not saved" words.
    public enum Notice: String, Encodable, CaseIterable, Sendable {
        case saveFailed, undoFailed
    }
    /// Changes with every published state (pages send it back with a tap).
    public var version: Int
    /// Whether the page shows "switch child" (back to the picker): a guardian allowed it on the
    /// guardian pages and the picker has another child to choose. Never a way into guardian mode.
    public var siblingSwitch = false

    /// The screen of `state` for `child`; `text` resolves catalog keys in a locale.
    public static func make(state: ChildModeState, child: Child, now: Date, version: Int, fallbackLocale: String,
                            picture: IconRef? = nil, siblingSwitch: Bool = false,
                            text: (String, [String: String], String) -> String) -> KioskScreen {
        let locale = child.profile.locale ?? fallbackLocale
        func card(_ item: DayPlan.Item) -> Card {
            let r = item.routine
            let icon = Self.icon(r.icon, locale: locale, photoLabel: r.title.resolve(chosen: locale, system: nil))
            return Card(id: r.id.lowercased, title: r.title.resolve(chosen: locale, system: nil), icon: icon,
                        color: CardColor(token: r.colorToken)?.rawValue ?? "sky", done: item.isCompleted,
                        current: state.plan.current?.routine.id == r.id)
        }
        let items = state.plan.items.map(card)
        let focus = state.focus.flatMap { id in state.plan.items.first { $0.routine.id == id } }.map(card)
        let screen = state.screenKind(at: now)
        let waiting = screen == .waiting ? state.plan.set?.startTime?.description : nil
        let keys = ["done", "undo", "next", "allDone", "waiting", "empty", "reconnecting", "progress", "doneHint", "list", "notSaved", "notTaken",
                    "switchChild"]
        var labels: [String: String] = [:]
        for key in keys {
            labels[key] = text("kiosk." + key, ["time": waiting ?? "", "completed": String(state.shownCompleted),
                                                "total": String(state.plan.total), "child": child.displayName], locale)
        }
        let info = ChildInfo(id: child.id.lowercased, name: child.displayName, locale: locale,
                             picture: icon(picture ?? child.picture ?? .fallback, locale: locale, photoLabel: child.displayName))
        var made = KioskScreen(child: info, screen: screen,
                           completed: state.shownCompleted, total: state.plan.total, items: items, focus: focus,
                           undoDeadline: state.undo?.deadline, undoSeconds: state.undoDurationSeconds, waitingUntil: waiting,
                           intensity: child.profile.intensity.rawValue, labels: labels, notice: notice(state.notice), version: version)
        made.siblingSwitch = siblingSwitch
        return made
    }

    /// A routine's icon or a child's picture as the page draws it: a builtin icon with its label
    /// in the child's language, or a photo served by name from the data folder (`/photos/<name>`),
    /// named `photoLabel`; a photo name the contract does not allow is drawn as the star.
    static func icon(_ ref: IconRef, locale: String, photoLabel: String) -> Icon {
        switch ref {
        case .builtin(let name):
            return Icon(type: "builtin", name: name, url: nil, label: BuiltinIcons.label(of: name)?.resolve(chosen: locale, system: nil) ?? name)
        case .photo(_, let asset):
            return KioskRoutes.isPhotoName(asset)
                ? Icon(type: "photo", name: nil, url: "/photos/" + asset, label: photoLabel)
                : Icon(type: "builtin", name: "star", url: nil, label: photoLabel)
        }
    }

    /// The notices a page shows: only a save that failed (a refused undo is the ring's to show).
    static func notice(_ notice: ChildModeState.Notice?) -> Notice? {
        switch notice {
        case .saveFailed?: .saveFailed
        case .undoFailed?: .undoFailed
        default: nil
        }
    }

    /// The JSON the page reads, with the undo countdown as of `now`.
    public func json(now: Date) -> String {
        struct Undo: Encodable { var secondsLeft: Double; var totalSeconds: Int }
        struct Progress: Encodable { var completed: Int; var total: Int }
        struct Wire: Encodable {
            var child: ChildInfo; var screen: ChildScreenKind; var progress: Progress; var items: [Card]; var focus: Card?
            var undo: Undo?; var waitingUntil: String?; var intensity: String; var version: Int; var labels: [String: String]
            var notice: Notice?; var siblingSwitch: Bool
        }
        let undo = undoDeadline.map { Undo(secondsLeft: max(0, $0.timeIntervalSince(now)), totalSeconds: undoSeconds) }
        let wire = Wire(child: child, screen: screen, progress: Progress(completed: completed, total: total), items: items, focus: focus,
                        undo: undo, waitingUntil: waitingUntil, intensity: intensity, version: version, labels: labels, notice: notice,
                        siblingSwitch: siblingSwitch)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(wire)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Equal apart from the version: nothing a page shows changed.
    func sameContent(as other: KioskScreen) -> Bool {
        var a = self, b = other
        a.version = 0; b.version = 0
        return a == b
    }
}
