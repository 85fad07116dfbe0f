import Dispatch
import Foundation
import SteppieCentre
import Synchronization
import Testing

/// Work taken together while earlier work runs (`Grouping`, the centre hub's pushes taken in
/// groups): no database, threads only.
@Suite struct GroupingTests {
    /// Waits until `condition` holds (checked every millisecond), at most 10 s.
    static func until(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            if Date() > deadline { return false }
            usleep(1_000)
        }
        return true
    }

    /// Runs each body on a thread of its own (as the hub's requests are: Dispatch's global queue
    /// runs as many blocked bodies at once as there are cores, here two), and waits for them all.
    final class Threads: @unchecked Sendable {
        let group = DispatchGroup()
        func run(_ body: @escaping @Sendable () -> Void) {
            group.enter()
            Thread { [group] in
                body()
                group.leave()
            }.start()
        }
        func join() -> Bool { group.wait(timeout: .now() + 20) == .success }
    }

    @Test func aLoneInputRunsAtOnceAloneAndGetsItsOwnOutput() {
        let grouping = Grouping<Int, String>(maxRunning: 2, maxInputs: 8, maxWeight: 100)
        let out = grouping.submit(7, key: "a", weight: 1) { inputs in inputs.map { "out-\($0)" } }
        #expect(out == "out-7")
        #expect(grouping.counts == (1, 1, 1))
        #expect(grouping.waitingCount == 0)
    }

    /// Inputs arriving while groups run wait, and go together in the next group, oldest first,
    /// one a key, each given its own output; at most `maxRunning` groups run at once.
    @Test func inputsArrivingWhileGroupsRunGoTogetherInTheNextOne() throws {
        let grouping = Grouping<Int, Int>(maxRunning: 2, maxInputs: 8, maxWeight: 100)
        let release = DispatchSemaphore(value: 0)
        let running = Atomic<Int>(0), most = Atomic<Int>(0)
        let groups = Mutex<[[Int]]>([])
        let outputs = Mutex<[Int: Int]>([:])
        let threads = Threads()
        let run: @Sendable ([Int]) -> [Int] = { inputs in
            let now = running.add(1, ordering: .sequentiallyConsistent).newValue
            _ = most.max(now, ordering: .sequentiallyConsistent)
            groups.withLock { $0.append(inputs) }
            // The first two groups are held until everything else is waiting.
            if inputs.contains(1) || inputs.contains(2) { release.wait() }
            running.subtract(1, ordering: .sequentiallyConsistent)
            return inputs.map { $0 * 10 }
        }
        func submit(_ input: Int, key: String) {
            threads.run {
                let out = grouping.submit(input, key: key, weight: 1, run: run)
                outputs.withLock { $0[input] = out }
            }
        }
        submit(1, key: "d1")
        #expect(Self.until { groups.withLock { $0.count } == 1 })
        submit(2, key: "d2")
        #expect(Self.until { groups.withLock { $0.count } == 2 }, "a second group runs beside the first")
        // Five more while both run: 3, 4, a second input of d3 (5), 6, 7, in this order.
        for (input, key) in [(3, "d3"), (4, "d4"), (5, "d3"), (6, "d6"), (7, "d7")] {
            submit(input, key: key)
            #expect(Self.until { grouping.waitingCount == input - 2 })
        }
        release.signal()
        release.signal()
        #expect(threads.join())
        let ran = groups.withLock { $0 }
        #expect(ran.count == 4, "\(ran)")
        #expect(Array(ran.prefix(2)) == [[1], [2]])
        // The next group takes everything waiting, oldest first, but d3's second input waits for
        // a group after it (the two may run side by side, so either may be listed first).
        #expect(Set(ran.suffix(2)) == [[3, 4, 6, 7], [5]])
        #expect(most.load(ordering: .sequentiallyConsistent) == 2)
        #expect(outputs.withLock { $0 } == Dictionary(uniqueKeysWithValues: (1...7).map { ($0, $0 * 10) }))
        #expect(grouping.counts == (4, 7, 4))
    }

    /// A group holds at most `maxInputs` inputs and `maxWeight` of weight, but an input heavier
    /// than that alone still runs, alone.
    @Test func aGroupIsBoundedByItsCountAndItsWeight() throws {
        let grouping = Grouping<Int, Int>(maxRunning: 1, maxInputs: 3, maxWeight: 10)
        let release = DispatchSemaphore(value: 0)
        let groups = Mutex<[[Int]]>([])
        let threads = Threads()
        let run: @Sendable ([Int]) -> [Int] = { inputs in
            groups.withLock { $0.append(inputs) }
            if inputs == [0] { release.wait() }
            return inputs
        }
        threads.run { _ = grouping.submit(0, key: "k0", weight: 1, run: run) }
        #expect(Self.until { groups.withLock { $0.count } == 1 })
        // Weights 1, 1, 1 (a full group), then 1, 25 (past the bound: left), 4, 7 (past it: left);
        // then the 25 alone, as the oldest waiting, and the 7.
        let inputs: [(Int, Int)] = [(1, 1), (2, 1), (3, 1), (4, 1), (5, 25), (6, 4), (7, 7)]
        for (n, (input, weight)) in inputs.enumerated() {
            threads.run { _ = grouping.submit(input, key: "k\(input)", weight: weight, run: run) }
            #expect(Self.until { grouping.waitingCount == n + 1 })
        }
        release.signal()
        #expect(threads.join())
        #expect(groups.withLock { $0 } == [[0], [1, 2, 3], [4, 6], [5], [7]])
    }
}
