import Foundation

extension Validator {
    /// Start times a weekly schedule may have on one weekday (7 × 8 = 56 a week).
    public static let maxScheduleStartsPerDay = 8

    /// A child's weekly schedule: each entry names at least one weekday, no weekday and start
    /// is named twice, at most `maxScheduleStartsPerDay` starts a weekday, and every set is one
    /// of `sets` that belongs to `childId` and is not deleted.
    public static func schedule(_ entries: [ScheduleEntry], childId: UUID, sets: [RoutineSet]) throws {
        var seen: Set<String> = []
        var perDay: [Weekday: Int] = [:]
        for entry in entries {
            if entry.weekdays.isEmpty {
                throw ContractViolation(field: "schedule.weekdays", value: "(none)", allowed: "at least one of mon…sun",
                                            allowedKey: "contract.allowed.weekdays", valueKey: "contract.value.none")
            }
            for day in entry.weekdays.sorted() {
                let slot = "\(day.code) \(entry.start)"
                if !seen.insert(slot).inserted {
                    throw ContractViolation(field: "schedule.start", value: slot,
                                            allowed: "one set per weekday and start time",
                                            allowedKey: "contract.allowed.oneSetPerStart")
                }
                perDay[day, default: 0] += 1
                if let count = perDay[day], count > maxScheduleStartsPerDay {
                    throw ContractViolation(field: "schedule.entries", value: "\(count) on \(day.code)",
                                            allowed: "at most \(maxScheduleStartsPerDay) start times a day",
                                            allowedKey: "contract.allowed.maxStarts", arguments: ["max": String(maxScheduleStartsPerDay)])
                }
            }
            let id = entry.routineSetId
            guard let set = sets.first(where: { $0.id == id }), set.childId == childId else {
                throw ContractViolation(field: "schedule.routineSetId", value: id.lowercased, allowed: "a set of this child", allowedKey: "contract.allowed.setOfChild")
            }
            if set.deletedAt != nil {
                throw ContractViolation(field: "schedule.routineSetId", value: id.lowercased, allowed: "a set that is not deleted", allowedKey: "contract.allowed.setNotDeleted")
            }
        }
    }
}
