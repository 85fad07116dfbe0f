import Foundation
import SteppieChildMode
import SteppieCore
import SteppieFeedback
import SteppieFiles
import SteppieInput
import SteppieStore

/// The children the service runs: runtimes started and stopped, weekly schedules applied, events broadcast.
extension ServiceHost {
    // MARK: Children

    /// Starts a runtime for every child with an active set and stops those of children that left.
    func rescan(now: Double) {
        lastScan = now
        guard let children = try? store.children(includeArchived: false) else { return }
        childPictures = ChildPictures.resolve(children)
        siblingsMaySwitch = (try? store.siblingsMaySwitch()) ?? false
        for child in children { applySchedule(child) }
        var wanted = Set<UUID>()
        for child in children where (try? store.activeSet(childId: child.id)) != nil {
            wanted.insert(child.id)
            names[child.id] = child.displayName
            if runtimes[child.id] == nil, let runtime = makeRuntime(child) {
                runtimes[child.id] = runtime
                if lastVersion >= 0 { log(.childAdded(child.displayName)) }
            }
        }
        for id in runtimes.keys where !wanted.contains(id) {
            runtimes[id] = nil
            log(.childRemoved(names[id] ?? id.lowercased))
        }
    }

    /// Switches the child's active set when the weekly schedule says so: once when the service
    /// starts, then at each switch instant (a manual choice holds until the next switch).
    func applySchedule(_ child: Child) {
        let now = clock.now()
        let last = scheduleChecked[child.id]
        scheduleChecked[child.id] = now
        guard let schedule = try? store.schedule(childId: child.id), !schedule.isEmpty else { return }
        if let last {
            guard let next = schedule.nextSwitch(after: last, in: store.timeZone), next.at <= now else { return }
        }
        do {
            if try store.applySchedule(childId: child.id, at: now) {
                log(.setSwitched(child: child.displayName))
                runtimes[child.id]?.reloadPlan()
            }
        } catch {
            log(.fault(child: child.displayName, reason: describe(error)))
        }
    }

    func makeRuntime(_ child: Child) -> ChildModeRuntime? {
        let locale = child.profile.locale ?? speechLocale
        let name = child.displayName
        let report: (String) -> Void = { [log] in log(.fault(child: name, reason: $0)) }
        let describe: (any Error) -> String = { [render] in render(.log($0)) }
        let recordings = RecordingCache(store: store, describe: describe, report: report)
        let sound = FeedbackCuePlayer(engine: engine, child: child, locale: locale, recordings: recordings, describe: describe, report: report)
        let gate = StartGate(sound)
        let id = child.id
        let events = EventLog(zone: store.timeZone, locale: locale) { [weak self] line throws(FileRefusal) in
            self?.broadcast(line, child: id)
        }
        do {
            let runtime = try ChildModeRuntime(store: store, child: child, clock: clock, player: gate, events: events)
            runtime.onFault = { [log] in log(.fault(child: name, reason: describe($0))) }
            // The service starting (a boot, a restart) is not a moment to speak: the first
            // announcement comes with the first press, timer, reminder or schedule.
            gate.muted = true
            runtime.start()
            gate.muted = false
            return runtime
        } catch {
            log(.fault(child: name, reason: describe(error)))
            return nil
        }
    }

    func broadcast(_ line: String, child: UUID) {
        let wrapped = "{\"child\":\"\(child.lowercased)\",\"event\":\(line)}"
        for c in clients where c.subscribedChild == child { c.send(wrapped) }
    }
}
