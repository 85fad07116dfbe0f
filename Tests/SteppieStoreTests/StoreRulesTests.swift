import Foundation
import Testing
import SteppieCore
@testable import SteppieStore

@Suite struct StoreRulesTests {
    /// Each refused change names field, value and what is allowed, and leaves the database unchanged.
    @Test func contractViolationsLeaveTheDatabaseUnchanged() throws {
        let f = try StoreFixture()
        let child = try f.childWithMorning()
        let set = try #require(try f.store.activeSet(childId: child.id))
        let first = try #require(try f.store.routines(setId: set.id).first)
        let before = try f.store.dump()

        func refused(_ expected: ContractViolation, _ body: () throws -> Void) {
            #expect(throws: StoreError.invalid(expected), "\(expected.field)") { try body() }
        }
        var p = child.profile
        p.ttsRate = 1.6
        refused(ContractViolation(field: "ttsRate", value: "1.6", allowed: "0.5…1.5")) { try f.store.updateProfile(childId: child.id, p, at: f.now) }
        p = child.profile
        p.undoDurationSeconds = 4
        refused(ContractViolation(field: "undoDurationSeconds", value: "4", allowed: "3, 5 or 10")) { try f.store.updateProfile(childId: child.id, p, at: f.now) }
        refused(ContractViolation(field: "title", value: "(empty in every locale)", allowed: "non-empty text in at least one locale")) {
            try f.store.addRoutine(setId: set.id, title: LocalizedText(["ko": "", "en": ""]), at: f.now)
        }
        refused(ContractViolation(field: "order", value: "2", allowed: "an order not used by another active routine of the set")) {
            try f.store.addRoutine(setId: set.id, title: LocalizedText(ko: "물 마시기", en: "Drink water"), order: 2, at: f.now)
        }
        refused(ContractViolation(field: "colorToken", value: "color.card.black", allowed: CardColor.allCases.map(\.token).joined(separator: ", "))) {
            try f.store.addRoutine(setId: set.id, title: LocalizedText(ko: "물 마시기", en: "Drink water"), colorToken: "color.card.black", at: f.now)
        }
        refused(ContractViolation(field: "icon", value: "unicorn", allowed: "a builtin icon name (see `steppie icons`) or a photo")) {
            try f.store.addRoutine(setId: set.id, title: LocalizedText(ko: "물 마시기", en: "Drink water"), icon: .builtin(name: "unicorn"), at: f.now)
        }
        var moved = first
        moved.order = 3
        refused(ContractViolation(field: "order", value: "3", allowed: "an order not used by another active routine of the set")) {
            try f.store.updateRoutine(moved, at: f.now)
        }
        refused(ContractViolation(field: "child.name", value: "(empty)", allowed: "1…60 visible characters")) {
            try f.store.addChild(name: "   ", at: f.now)
        }
        #expect(throws: StoreError.childNameTaken("mina")) { try f.store.addChild(name: "mina", at: f.now) }
        #expect(try f.store.dump() == before)
        #expect(try f.store.integrityProblems().isEmpty)
    }

    @Test func onlyTheCurrentRoutineCanBeCompletedAndUndoKeepsTheSameRow() throws {
        let f = try StoreFixture()
        let child = try f.childWithMorning()
        var plan = try f.store.today(childId: child.id, day: f.today)
        #expect(plan.total == 6 && plan.completedCount == 0)
        let current = try #require(plan.current).routine
        let later = plan.items[3].routine
        #expect(throws: StoreError.notCurrent(routine: later.id.lowercased, current: current.id.lowercased)) {
            try f.store.complete(childId: child.id, routineId: later.id, day: f.today, at: f.now)
        }
        let done = try f.store.complete(childId: child.id, routineId: current.id, day: f.today, at: f.now)
        #expect(done.status == .completed && done.completedAt == f.now)
        plan = try f.store.today(childId: child.id, day: f.today)
        #expect(plan.completedCount == 1 && plan.current?.routine.id == plan.items[1].routine.id)

        let undone = try f.store.undo(childId: child.id, day: f.today, at: f.now.addingTimeInterval(4), windowSeconds: 5)
        #expect(undone.id == done.id && undone.status == .undone && undone.completedAt == nil)
        #expect(try f.store.today(childId: child.id, day: f.today).current?.routine.id == current.id)

        // Completing again reuses the row; undo after the window is refused.
        let again = try f.store.complete(childId: child.id, day: f.today, at: f.now.addingTimeInterval(10))
        #expect(again.id == done.id)
        #expect(throws: StoreError.undoWindowPassed(seconds: 5)) {
            try f.store.undo(childId: child.id, day: f.today, at: f.now.addingTimeInterval(16), windowSeconds: 5)
        }
        #expect(throws: StoreError.nothingToUndo) {
            try f.store.undo(childId: try f.childWithMorning("Jun").id, day: f.today, at: f.now, windowSeconds: 5)
        }
    }

    @Test func undoAfterTheLocalDateChangedIsRefused() throws {
        let f = try StoreFixture(now: "2026-03-02T23:59:58+09:00")
        let child = try f.childWithMorning()
        try f.store.complete(childId: child.id, day: f.today, at: f.now)
        #expect(throws: StoreError.dayChanged) {
            try f.store.undo(childId: child.id, day: f.today, at: f.now.addingTimeInterval(3), windowSeconds: 5)
        }
        // The completion just before midnight stays on the old date.
        let logs = try f.store.history(childId: child.id, from: f.today, through: f.today.adding(days: 1))
        #expect(logs.map { $0.log?.date.description } == ["2026-03-02"])
    }

    @Test func allDoneAfterTheLastRoutine() throws {
        let f = try StoreFixture()
        let child = try f.store.addChild(name: "Ara", at: f.now)
        try f.store.createSet(childId: child.id, template: .bedtime, at: f.now)
        for i in 0..<3 { try f.store.complete(childId: child.id, day: f.today, at: f.now.addingTimeInterval(Double(i))) }
        let plan = try f.store.today(childId: child.id, day: f.today)
        #expect(plan.isAllDone && plan.completedCount == 3)
        #expect(throws: StoreError.allDone) { try f.store.complete(childId: child.id, day: f.today, at: f.now) }
        // The next day starts fresh.
        #expect(try f.store.today(childId: child.id, day: f.today.adding(days: 1)).completedCount == 0)
    }

    @Test func softDeletedRoutineLeavesTodayButKeepsItsHistory() throws {
        let f = try StoreFixture()
        let child = try f.childWithMorning()
        let log = try f.store.complete(childId: child.id, day: f.today, at: f.now)
        var routine = try f.store.routine(id: log.routineId)
        routine.deletedAt = f.now
        try f.store.updateRoutine(routine, at: f.now)
        let plan = try f.store.today(childId: child.id, day: f.today)
        #expect(plan.total == 5 && !plan.items.contains { $0.routine.id == routine.id })
        let history = try f.store.history(childId: child.id, from: f.today, through: f.today)
        #expect(history.map(\.routine.id) == [routine.id])
        #expect(history.first?.routine.title.value(for: "ko") == "일어나기")
        // A new routine may now take the freed order.
        try f.store.addRoutine(setId: routine.routineSetId, title: LocalizedText(["en": "Stretch"]), icon: .builtin(name: "walk"), order: routine.order, at: f.now)
        #expect(try f.store.integrityProblems().isEmpty)
    }

    @Test func reorderKeepsOrdersUniqueAndActivationMovesTheActiveSet() throws {
        let f = try StoreFixture()
        let child = try f.childWithMorning()
        let morning = try #require(try f.store.activeSet(childId: child.id))
        let ids = try f.store.routines(setId: morning.id).map(\.id)
        try f.store.reorder(setId: morning.id, ids: ids.reversed(), at: f.now)
        #expect(try f.store.routines(setId: morning.id).map(\.id) == ids.reversed())
        #expect(throws: StoreError.self) { try f.store.reorder(setId: morning.id, ids: Array(ids.dropLast()), at: f.now) }

        let bedtime = try f.store.createSet(childId: child.id, template: .bedtime, at: f.now)
        #expect(!bedtime.isActive)
        try f.store.activateSet(bedtime.id, at: f.now)
        #expect(try f.store.activeSet(childId: child.id)?.id == bedtime.id)
        #expect(try f.store.sets(childId: child.id).filter(\.isActive).count == 1)
        #expect(try f.store.integrityProblems().isEmpty)
    }

    @Test func childrenHaveTheirOwnSetsLogsAndProfiles() throws {
        let f = try StoreFixture()
        let mina = try f.childWithMorning("Mina")
        let jun = try f.childWithMorning("Jun")
        try f.store.complete(childId: mina.id, day: f.today, at: f.now)
        #expect(try f.store.today(childId: mina.id, day: f.today).completedCount == 1)
        #expect(try f.store.today(childId: jun.id, day: f.today).completedCount == 0)
        var quiet = jun.profile
        quiet.intensity = .quiet
        quiet.quietHoursStart = LocalTime("21:00")
        quiet.quietHoursEnd = LocalTime("07:00")
        quiet.notificationLeadTimes = [15]
        try f.store.updateProfile(childId: jun.id, quiet, at: f.now)
        #expect(try f.store.child(id: jun.id).profile == quiet)
        #expect(try f.store.child(id: mina.id).profile == FeedbackProfile())
        #expect(throws: StoreError.childAmbiguous(["Mina", "Jun"])) { try f.store.resolveChild(nil) }
        #expect(try f.store.resolveChild("JUN").id == jun.id)
        try f.store.archiveChild(id: jun.id, at: f.now)
        #expect(try f.store.resolveChild(nil).id == mina.id)
    }
}
