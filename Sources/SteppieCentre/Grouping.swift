import Dispatch
import Foundation

/// Work that arrives while earlier work is running, taken together (group commit): a caller
/// whose input finds fewer than `maxRunning` groups running runs a group itself — every input
/// waiting, oldest first, up to `maxInputs` and `maxWeight` (at least one), one per key — and
/// hands each waiting caller its output; the others wait. A lone caller runs its input at once,
/// alone; callers arriving together while a group runs go together in the next one.
///
/// Each caller waits on a semaphore of its own: a group done wakes only its callers, and the
/// oldest caller still waiting, to run the next group (hundreds of waiters woken through one
/// condition took turns through its lock, docs/performance.md, session 50).
package final class Grouping<Input, Output>: @unchecked Sendable {
    private final class Slot {
        let input: Input
        let key: String
        let weight: Int
        var output: Output?
        /// In a group being run (no longer waiting): its caller waits for that group's end.
        var taken = false
        let wake = DispatchSemaphore(value: 0)

        init(input: Input, key: String, weight: Int) {
            self.input = input
            self.key = key
            self.weight = weight
        }
    }

    private let lock = NSLock()
    private var waiting: [Slot] = []
    private var running = 0
    private var groups = 0
    private var grouped = 0
    private var largest = 0
    package let maxRunning: Int
    package let maxInputs: Int
    package let maxWeight: Int

    package init(maxRunning: Int, maxInputs: Int, maxWeight: Int) {
        precondition(maxRunning > 0 && maxInputs > 0 && maxWeight > 0)
        self.maxRunning = maxRunning
        self.maxInputs = maxInputs
        self.maxWeight = maxWeight
    }

    /// Groups run, inputs taken in them, and the largest group, for tests and the benchmark.
    package var counts: (groups: Int, inputs: Int, largest: Int) {
        lock.withLock { (groups, grouped, largest) }
    }

    /// Inputs waiting for a group now.
    package var waitingCount: Int { lock.withLock { waiting.count } }

    /// `input`'s output, from a group run by this caller or another: `run` is given a group's
    /// inputs in their order of arrival and returns their outputs in the same order.
    package func submit(_ input: Input, key: String, weight: Int, run: ([Input]) -> [Output]) -> Output {
        let slot = Slot(input: input, key: key, weight: weight)
        lock.lock()
        waiting.append(slot)
        while slot.output == nil {
            // A caller woken to run the next group whose input another caller's group took
            // meanwhile waits for that group instead (it would run empty groups until then).
            guard running < maxRunning, !slot.taken else {
                lock.unlock()
                slot.wake.wait()
                lock.lock()
                continue
            }
            let group = take()
            running += 1
            groups += 1
            grouped += group.count
            largest = max(largest, group.count)
            lock.unlock()
            let outputs = run(group.map(\.input))
            precondition(outputs.count == group.count, "a group's run gives one output an input")
            lock.lock()
            running -= 1
            for (taken, output) in zip(group, outputs) {
                taken.output = output
                if taken !== slot { taken.wake.signal() }
            }
            // The oldest caller still waiting runs the next group.
            if let next = waiting.first { next.wake.signal() }
        }
        lock.unlock()
        return slot.output!
    }

    /// The next group, out of `waiting` (under the lock): oldest first, one input a key.
    private func take() -> [Slot] {
        var group: [Slot] = [], keys: Set<String> = [], weight = 0, left: [Slot] = []
        for slot in waiting {
            if group.count < maxInputs, !keys.contains(slot.key), group.isEmpty || weight + slot.weight <= maxWeight {
                slot.taken = true
                group.append(slot)
                keys.insert(slot.key)
                weight += slot.weight
            } else {
                left.append(slot)
            }
        }
        waiting = left
        return group
    }
}
