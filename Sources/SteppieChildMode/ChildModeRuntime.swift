import Foundation
import SteppieCore
import SteppieStore

/// Runs child mode: feeds events to the pure reducer and executes its effects with the store,
/// the cue player, one undo timer and the event log, on an injected clock. Notices a new local day, changes
/// made by other processes, and due reminders on `poll`.
public final class ChildModeRuntime {
    public private(set) var state: ChildModeState
    public private(set) var child: Child
    private let store: any ChildModeStore
    private let clock: any WallClock
    private let player: any CuePlayer
    private let events: EventLog?
    private var undoTimer: Date?
    private var dataVersion: Int
    private var lastTick: Date
    /// Called with a fault the first time it happens (e.g. the database turned read-only).
    public var onFault: (any Error) -> Void = { _ in }

    public init(store: any ChildModeStore, child: Child, clock: any WallClock, player: any CuePlayer, events: EventLog?) throws {
        self.store = store
        self.child = child
        self.clock = clock
        self.player = player
        self.events = events
        let now = clock.now()
        state = ChildModeState(timeZone: store.timeZone, profile: child.profile,
                               plan: try store.today(childId: child.id, day: LocalDay(now, in: store.timeZone)), now: now)
        dataVersion = try store.dataVersion()
        lastTick = now
    }

    /// Opens child mode: announces the current activity (or when the set starts).
    public func start() { send(.started(now: clock.now())) }

    // A press acts on what is committed now: another device's press of the same activity may
    // have arrived through sync (or another process) since the last poll, and a press on the
    // plan before it would name an activity that is no longer the current one.
    public func done() { pressing { send(.donePressed(now: $0)) } }
    public func press(_ routineId: UUID) { pressing { send(.pressed(routineId: routineId, now: $0)) } }
    public func undo() { pressing { send(.undoPressed(now: $0)) } }
    public func next() { pressing { send(.nextPressed(now: $0)) } }

    private func pressing(_ event: (Date) -> Void) {
        let now = clock.now()
        reloadIfChanged(now: now)
        event(now)
    }

    /// Takes in what other connections committed since the last poll (a caller that compares the
    /// plan before and after a press reads "before" after this).
    public func catchUp() { reloadIfChanged(now: clock.now()) }

    /// Called often (every 100–250 ms): fires the undo timer, ticks the clock (new day, reminders,
    /// start time) and reloads when another process changed the database.
    public func poll() {
        let now = clock.now()
        if let t = undoTimer, now >= t {
            undoTimer = nil
            send(.undoWindowElapsed(now: now))
        }
        if now.timeIntervalSince(lastTick) >= 0.25 || LocalDay(now, in: store.timeZone) != state.day {
            lastTick = now
            send(.tick(now: now))
        }
        reloadIfChanged(now: now)
    }

    /// Reads today's plan again now: for a change this process made through another path (the
    /// service switching sets by schedule), which SQLite's data_version does not report.
    public func reloadPlan() {
        let now = clock.now()
        do {
            send(.planChanged(try store.today(childId: child.id, day: LocalDay(now, in: store.timeZone)), now: now))
        } catch {
            onFault(error)
        }
    }

    /// When the next timer-driven event is due, so a loop can sleep until then.
    public var nextDeadline: Date? { undoTimer }

    private func reloadIfChanged(now: Date) {
        // A replaced database file (or a deleted WAL) would swallow every later save: say so now;
        // each save is refused by the store and shown as not saved.
        do { try store.checkFileIdentity() } catch {
            onFault(error)
            return
        }
        // data_version changes only with other connections' commits, never with our own saves.
        guard let version = try? store.dataVersion(), version != dataVersion else { return }
        dataVersion = version
        player.dataChanged()
        do {
            if let fresh = try current(), fresh != child {
                child = fresh
                player.update(child: fresh)
                send(.profileChanged(fresh.profile, now: now))
            }
            send(.planChanged(try store.today(childId: child.id, day: LocalDay(now, in: store.timeZone)), now: now))
        } catch {
            onFault(error)
        }
    }

    /// The child as stored now: by id, or — when a restore by another process replaced the
    /// children (a phone backup gets new ids) — the child of the same name, or the only child.
    private func current() throws -> Child? {
        if let same = try? store.child(id: child.id) { return same }
        if let named = try? store.resolveChild(child.displayName) { return named }
        let all = try store.children(includeArchived: false)
        return all.count == 1 ? all[0] : nil
    }

    /// One event through the reducer, then its effects, then any events those produced.
    public func send(_ event: ChildModeEvent) {
        var queue = [event]
        while !queue.isEmpty {
            let e = queue.removeFirst()
            for effect in ChildModeReducer.reduce(&state, e) { queue += execute(effect, of: e) }
        }
    }

    private func execute(_ effect: ChildModeEffect, of event: ChildModeEvent) -> [ChildModeEvent] {
        switch effect {
        case .persistCompletion(let routineId, let day, let at):
            do {
                let log = try store.complete(childId: child.id, routineId: routineId, day: day, at: at)
                return [.completionSaved(log, now: clock.now())]
            } catch {
                onFault(error)
                return [.completionFailed(now: clock.now())]
            }
        case .persistUndo(let logId, _, let day, let at):
            do {
                let log = try store.undoCompletion(logId: logId, day: day, at: at, windowSeconds: state.undoDurationSeconds)
                return [.undoSaved(log, now: clock.now())]
            } catch {
                onFault(error)
                return [.undoFailed(now: clock.now())]
            }
        case .reloadPlan(let day):
            do {
                return [.planChanged(try store.today(childId: child.id, day: day), now: clock.now())]
            } catch {
                onFault(error)
                return []
            }
        case .startUndoTimer(let at):
            undoTimer = at
        case .cancelUndoTimer:
            undoTimer = nil
        case .play(let cue):
            player.play(cue, plan: state.plan, child: child)
        case .log(let entry):
            write(entry, of: event)
        }
        return []
    }

    // MARK: Events for other front ends

    /// Writes one line the reducer asked for, with the state as the event left it. A step's own
    /// lines carry the event's instant; a cue's line is written right after its `play` ran and
    /// carries the instant it was played.
    private func write(_ entry: ChildModeLogEntry, of event: ChildModeEvent) {
        guard let events else { return }
        let at = entry.kind == .cue ? clock.now() : event.now
        events.record(entry.kind, routine: entry.routineId.flatMap { state.plan.item($0)?.routine }, state: state, at: at,
                      cue: entry.cue, minutes: entry.minutes)
    }
}
