import Foundation
import Testing
@testable import SteppieCore

/// A restore holds a million logs as records: each must read back as the very `DailyLog` that
/// went in, and take a third of a `DailyLog`'s memory.
@Suite struct DailyLogRecordsTests {
    @Test func logsReadBackToTheBit() throws {
        let routines = (0..<3).map { _ in UUID() }, sets = [UUID(), UUID()]
        var logs: [DailyLog] = []
        for n in 0..<500 {
            // Instants with odd fractions, before 1970 and far ahead, as a parsed stamp can be.
            let created = Date(timeIntervalSince1970: Double(n) * 86_399.123_456_7 - 1e9 + Double(n % 7) / 3)
            let done = n % 4 != 0
            logs.append(DailyLog(id: UUID(), date: try #require(LocalDay(year: 1 + n * 19, month: 1 + n % 12, day: 1 + n % 28)),
                                 routineId: routines[n % 3], routineSetId: sets[n % 2], status: done ? .completed : .undone,
                                 completedAt: done ? created.addingTimeInterval(0.001) : nil, createdAt: created,
                                 updatedAt: n % 5 == 0 ? nil : created.addingTimeInterval(1e9 + 0.5)))
        }
        let records = DailyLogRecords(logs)
        #expect(records.count == logs.count)
        #expect(records.logs == logs)
        for (n, l) in logs.enumerated() {
            #expect(records[n] == l)
            #expect(records[n].completedAt?.timeIntervalSinceReferenceDate.bitPattern == l.completedAt?.timeIntervalSinceReferenceDate.bitPattern)
            #expect(records[n].updatedAt.timeIntervalSinceReferenceDate.bitPattern == l.updatedAt.timeIntervalSinceReferenceDate.bitPattern)
        }
        // Each routine and set id is kept once.
        #expect(Set(records.refs) == Set(routines + sets))
        #expect(records.refs.count == 5)
        #expect(MemoryLayout<DailyLogRecords.Record>.stride == 64)   // 56 before the look index (schema v8)
    }

    @Test func equalityIsAboutTheLogsNotTheOrderOfTheirIds() throws {
        let a = UUID(), b = UUID()
        let day = try #require(LocalDay("2026-03-01"))
        let first = DailyLog(id: UUID(), date: day, routineId: a, routineSetId: b, status: .undone, completedAt: nil, createdAt: Date())
        let second = DailyLog(id: UUID(), date: day, routineId: b, routineSetId: a, status: .undone, completedAt: nil, createdAt: Date())
        var x = DailyLogRecords()
        _ = x.ref(b)
        x.append(first)
        x.append(second)
        let y = DailyLogRecords([first, second])
        #expect(x.refs != y.refs)
        #expect(x == y)
        #expect(x != DailyLogRecords([second, first]))
        #expect(x != DailyLogRecords([first]))
    }
}
