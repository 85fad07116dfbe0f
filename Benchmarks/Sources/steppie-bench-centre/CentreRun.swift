import Foundation
import Glibc
import SteppieBenchSupport
import SteppieSync
import SteppieTestSupport

/// One run: `hubCount` `steppie hub` processes on a fresh database, the devices split between
/// them, joined, granted a second device's children, then the morning.
struct CentreRun {
    struct Result {
        var hubs = 0
        var joinEntries = 0
        var joinSeconds = 0.0
        /// From the grants to every device's first copy whole (each device's four children).
        var copySeconds = 0.0
        var applied = 0
        var seconds = 0.0
        var offered = 0.0
        var push: [Double] = []
        var propagation: [Double] = []
        var events = 0
        var memory: [(peak: Int, now: Int)] = []
        var connections = 0
        /// Requests that failed in the morning, and in the set-up before it (joins, first copies).
        var failures: [String: Int] = [:]
        var setupFailures: [String: Int] = [:]
        /// The CPU the morning took, by party.
        var cpu = CPUSplit()
        /// Every round's rate (`rounds` mornings played one after another), the run's being their median.
        var roundRates: [Double] = []
        var appliedPerSecond: Double { seconds > 0 ? Double(applied) / seconds : 0 }
        var joinPerSecond: Double { joinSeconds > 0 ? Double(joinEntries) / joinSeconds : 0 }
    }

    let centre: Centre
    let devices: Int
    let workers: Int
    let seconds: Double
    /// Mornings played one after another on the same set-up.
    var rounds = 1
    /// Prints the database's statements of the mornings (pg_stat_statements).
    var statements = false

    func run(database: String, hubCount: Int) throws -> Result {
        var result = Result()
        result.hubs = hubCount
        try centre.createDatabase(database)
        var processes: [SpawnedProcess] = []
        var hubs: [Fleet.Hub] = []
        defer {
            for p in processes { p.stop(SIGTERM); _ = p.wait(timeout: 30) }
            // What the hubs said, each kind of line once with its count (ids and numbers blanked).
            for k in 0..<hubCount {
                let text = (try? String(contentsOfFile: centre.root + "/\(database)-hub\(k).log", encoding: .utf8)) ?? ""
                var kinds: [String: Int] = [:]
                for line in text.split(separator: "\n") {
                    let shape = line.replacing(/[0-9a-f]{8}-[0-9a-f-]{27}/, with: "ID").replacing(/[0-9]+/, with: "N")
                    kinds[String(shape), default: 0] += 1
                }
                for (shape, count) in kinds.sorted(by: { $0.value > $1.value }).prefix(8) { progress("\(database) hub\(k) log ×\(count): \(shape)") }
            }
        }
        for k in 0..<hubCount {
            let (process, hub) = try centre.startHub(database, name: "\(database)-hub\(k)")
            processes.append(process)
            hubs.append(hub)
        }
        guard Set(hubs.map(\.fingerprint)).count == 1 else { throw BenchError("the hub processes present different certificates") }

        progress("\(database): \(devices) invites")
        let codes = try centre.invites(database, count: devices)
        let simulated = (0..<devices).map { i in
            let d = SimDevice(index: i, hub: i % hubCount)
            d.own = [SimChild(name: String(format: "Child %04d", 2 * i)), SimChild(name: String(format: "Child %04d", 2 * i + 1))]
            return d
        }
        let fleet = Fleet(hubs: hubs, devices: simulated)
        fleet.start(workers: workers)
        defer { fleet.stop() }

        // Joins, each bringing its two children's registers.
        progress("\(database): joins")
        let joinStart = now()
        let joined = Locked(0)
        fleet.each { device in
            do {
                let reply = try fleet.client(device).join(JoinRequest(code: codes[device.index], deviceName: "bench-\(device.index)", device: device.id))
                device.credential = reply.credential
                let registers = device.own.flatMap { device.registers(of: $0) }
                device.lock.lock()
                device.due = registers
                device.lock.unlock()
                for _ in 0..<10 where !fleet.push(device, measured: false) { usleep(100_000) }
                if device.unacknowledged.isEmpty { joined.with { $0 += 1 } }
            } catch { fleet.note("join: \(error)") }
        }
        result.joinSeconds = Double(now() - joinStart) / 1e9
        result.joinEntries = simulated.reduce(0) { $0 + $1.own.count } * 50
        guard joined.with({ $0 }) == devices else { throw BenchError("only \(joined.with { $0 }) devices joined: \(fleet.failures.with { $0 })") }

        // Every child on a second device: device i also holds device i+1's children.
        progress("\(database): grants")
        try centre.grants(database, simulated.map { d in
            (d.id.text, (d.own + simulated[(d.index + 1) % devices].own).map(\.id))
        })
        progress("\(database): first copies")
        let copyStart = now()
        for device in simulated { fleet.enqueue(.run { fleet.pull(device) }) }
        guard waitUntil(timeout: 180, { fleet.copied.with { $0.count } == devices }) else {
            throw BenchError("\(fleet.copied.with { $0.count }) of \(devices) devices copied: \(fleet.failures.with { $0 })")
        }
        result.copySeconds = Double(now() - copyStart) / 1e9

        // The morning, `rounds` times over (each a new morning of the same shape): the round of
        // the median rate is the run's, the others' rates are listed beside it.
        result.setupFailures = fleet.failures.with { $0 }
        let peakConnections = Locked(0), sampling = Locked(true)
        let sampler = Thread {
            while sampling.with({ $0 }) {
                let n = centre.connections(database)
                peakConnections.with { $0 = max($0, n) }
                usleep(500_000)
            }
        }
        sampler.start()
        defer { sampling.with { $0 = false } }
        var played: [Result] = []
        // A profile of the database's statements in the mornings (`--statements`, on a cluster
        // preloading pg_stat_statements: STEPPIE_POSTGRES_CONF in scripts/with-postgres.sh).
        if statements {
            try centre.psql(database, ["-c", "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"])
            try centre.psql(database, ["-c", "SELECT pg_stat_statements_reset()"])
        }
        for round in 0..<rounds {
            played.append(try play(Morning(devices: simulated, seconds: seconds, seed: 28 + UInt64(round)), database: database,
                                   fleet: fleet, simulated: simulated, hubs: processes.map(\.pid)))
        }
        if statements {
            print("statements of the \(rounds) morning(s) on \(database), by their total time (calls, total ms, mean ms, rows, query):")
            print(try centre.psql(database, ["-F", " | ", "-c", """
                SELECT calls, round(total_exec_time::numeric, 1), round(mean_exec_time::numeric, 3), rows,
                       regexp_replace(left(query, 160), '\\s+', ' ', 'g')
                FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
                ORDER BY total_exec_time DESC LIMIT 30
                """]))
        }
        let chosen = played.sorted { $0.appliedPerSecond < $1.appliedPerSecond }[played.count / 2]
        result.applied = chosen.applied
        result.seconds = chosen.seconds
        result.events = chosen.events
        result.offered = chosen.offered
        result.push = chosen.push
        result.propagation = chosen.propagation
        result.cpu = chosen.cpu
        result.roundRates = played.map(\.appliedPerSecond)
        result.memory = processes.map { memory(of: $0.pid) }
        result.connections = peakConnections.with { $0 }
        let before = result.setupFailures
        result.failures = fleet.failures.with { all in
            all.reduce(into: [:]) { morning, failure in
                let count = failure.value - (before[failure.key] ?? 0)
                if count > 0 { morning[failure.key] = count }
            }
        }
        return result
    }

    /// One morning played: its entries made due at their times, every device pushing what it has
    /// every 250 ms, until all are acknowledged and seen by their second devices (or 10 s more).
    private func play(_ morning: Morning, database: String, fleet: Fleet, simulated: [SimDevice], hubs: [pid_t]) throws -> Result {
        var result = Result()
        fleet.startRound()
        result.events = morning.events
        result.offered = Double(morning.items.count) / seconds
        progress("\(database): the morning, \(morning.items.count) entries in \(Int(seconds)) s")
        let cpuStart = CPUSplit.mark(hubs: hubs)
        let start = now()
        var next = 0
        let check: UInt64 = 250_000_000
        while true {
            let t = now() - start
            while next < morning.items.count, morning.items[next].at * 1e9 <= Double(t) {
                let item = morning.items[next]
                let entry = Morning.entry(item)
                item.device.lock.lock()
                item.device.due.append(entry)
                item.device.lock.unlock()
                next += 1
            }
            var outstanding = false
            for device in simulated {
                device.lock.lock()
                let waiting = !device.due.isEmpty || !device.unacknowledged.isEmpty
                let go = waiting && !device.pushing && now() >= device.nextPushAt
                if go { device.pushing = true; device.nextPushAt = now() + check }
                device.lock.unlock()
                outstanding = outstanding || waiting
                if go {
                    fleet.enqueue(.run {
                        fleet.push(device, measured: true)
                        device.lock.lock(); device.pushing = false; device.lock.unlock()
                    })
                }
            }
            if next == morning.items.count, !outstanding { break }
            if Double(t) > (seconds + 120) * 1e9 { throw BenchError("the morning did not end: \(fleet.failures.with { $0 })") }
            usleep(2_000)
        }
        // Every press seen by its second device (or 10 s more).
        _ = waitUntil(timeout: 10) { fleet.propagation.with { $0.count } >= morning.events }
        result.cpu = CPUSplit(since: cpuStart)
        result.applied = fleet.applied.with { $0 }
        result.seconds = Double(fleet.lastAck.with { $0 } - start) / 1e9
        result.push = fleet.pushLatencies.with { $0 }
        result.propagation = fleet.propagation.with { $0 }
        return result
    }
}
