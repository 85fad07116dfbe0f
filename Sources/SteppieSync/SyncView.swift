/// What the data contract's tables hold after a merge, derived from a replica's registers and
/// events by the same rules on every device (`Resolution`, `DayFold`). Two devices with the same
/// registers and events have equal views; the view keeps the contract's invariants by
/// construction: one active set per child, one visible position per routine of a set, one entry
/// per routine and day.
package struct SyncView: Hashable, Sendable {
    package struct Child: Hashable, Sendable {
        package let name: SyncValue?
        package let archived: Bool
        package let activeSet: String?
        package let profile: [String: SyncValue]
    }

    package struct RoutineSet: Hashable, Sendable {
        package let child: String
        package let name: SyncValue?
        package let startTime: SyncValue?
        package let deleted: Bool
        /// The visible routines, in order: position = index.
        package let visibleOrder: [String]
    }

    package struct Routine: Hashable, Sendable {
        package let set: String
        package let title: SyncValue?
        package let icon: SyncValue?
        package let color: SyncValue?
        package let time: SyncValue?
        package let active: Bool
        package let deleted: Bool
    }

    package struct DayKey: Hashable, Sendable, Comparable {
        package let routine: String
        package let date: String
        package init(routine: String, date: String) {
            self.routine = routine
            self.date = date
        }
        package static func < (a: DayKey, b: DayKey) -> Bool { (a.date, a.routine) < (b.date, b.routine) }
    }

    package let children: [String: Child]
    package let sets: [String: RoutineSet]
    package let routines: [String: Routine]
    package let schedules: [String: SyncValue]
    package let recordings: [String: SyncValue]
    package let days: [DayKey: DayEntry]

    package init(_ replica: SyncReplica) {
        var routines: [String: Routine] = [:]
        var byKind: [SyncEntity: [String: [String: Versioned]]] = [:]
        for (key, fields) in replica.registers { byKind[key.entity, default: [:]][key.id] = fields }
        func bool(_ fields: [String: Versioned], _ name: String, _ otherwise: Bool) -> Bool {
            fields[name]?.value.bool ?? otherwise
        }
        for (id, fields) in byKind[.routine] ?? [:] {
            guard let set = fields["set"]?.value.string else { continue }
            routines[id] = Routine(set: set, title: fields["title"]?.value, icon: fields["icon"]?.value,
                                   color: fields["color"]?.value, time: fields["time"]?.value,
                                   active: bool(fields, "active", true), deleted: bool(fields, "deleted", false))
        }
        var routinesBySet: [String: [Resolution.OrderedRoutine]] = [:]
        for (id, routine) in routines {
            guard let created = replica.created(RecordKey(.routine, id)) else { continue }
            routinesBySet[routine.set, default: []].append(
                Resolution.OrderedRoutine(id: id, created: created, visible: routine.active && !routine.deleted))
        }
        var sets: [String: RoutineSet] = [:]
        var setsByChild: [String: [Resolution.CandidateSet]] = [:]
        for (id, fields) in byKind[.routineSet] ?? [:] {
            guard let child = fields["child"]?.value.string, let created = replica.created(RecordKey(.routineSet, id)) else { continue }
            let order = Resolution.visibleOrder(order: fields["order"]?.value.strings, routines: routinesBySet[id] ?? [])
            let deleted = bool(fields, "deleted", false)
            sets[id] = RoutineSet(child: child, name: fields["name"]?.value, startTime: fields["startTime"]?.value,
                                  deleted: deleted, visibleOrder: order)
            setsByChild[child, default: []].append(
                Resolution.CandidateSet(id: id, created: created, deleted: deleted, hasVisibleRoutine: !order.isEmpty))
        }
        var children: [String: Child] = [:]
        for (id, fields) in byKind[.child] ?? [:] {
            var profile: [String: SyncValue] = [:]
            for (field, versioned) in fields where field.hasPrefix("profile.") { profile[String(field.dropFirst(8))] = versioned.value }
            children[id] = Child(name: fields["name"]?.value, archived: bool(fields, "archived", false),
                                 activeSet: Resolution.activeSet(named: fields["activeSet"]?.value.string, sets: setsByChild[id] ?? []),
                                 profile: profile)
        }
        var eventsByDay: [DayKey: [CompletionEvent]] = [:]
        for event in replica.events.values { eventsByDay[DayKey(routine: event.routine, date: event.date), default: []].append(event) }
        self.children = children
        self.sets = sets
        self.routines = routines
        self.schedules = (byKind[.schedule] ?? [:]).compactMapValues { $0["slots"]?.value }
        self.recordings = (byKind[.recording] ?? [:]).compactMapValues { fields in
            bool(fields, "deleted", false) ? nil : fields["sha256"]?.value
        }
        self.days = eventsByDay.compactMapValues { DayFold.entry($0) }
    }
}
