import Foundation
import SteppieBenchSupport
import SteppieCore
import SteppieService
#if canImport(Glibc)
import Glibc
#endif

/// Presses on a device's control socket: their replies, and when another device shows them.
enum PressBench {
    /// Socket press → reply, as steppie-bench-service measures it: done and undo by turns on
    /// Mina's current routine, 20 ms apart.
    static func replies(_ node: SyncBenchNode, presses: Int) throws -> [Double] {
        guard let client = ServiceClient.connect(path: node.socket) else { throw BenchError("\(node.name): no socket") }
        var out: [Double] = []
        for i in 0..<presses {
            let action: PressAction = i % 2 == 0 ? .done : .undo
            let t = now()
            let reply = try client.request(ServiceRequest(.press(action, child: "Mina")))
            out.append(ms(now() - t))
            guard reply.ok, reply.press?.saved == true else { throw BenchError("press refused: \(String(describing: reply))") }
            usleep(20_000)
        }
        return out
    }

    /// A press on `from`, timed until `on` shows it: `on`'s service is asked for the child's screen
    /// (`state`, what its kiosk page is sent) whenever its subscription says something happened,
    /// and at least every 5 ms. Presses go over the children's routines in turn: on each routine
    /// done and undo alternate, ending with a done, then `next` (not timed) moves to the next
    /// routine; so every timed press changes a completion.
    static func visible(from: SyncBenchNode, on: SyncBenchNode, children: [String], presses: Int) throws -> [Double] {
        guard let press = ServiceClient.connect(path: from.socket), let look = ServiceClient.connect(path: on.socket) else {
            throw BenchError("no socket")
        }
        var watchers: [String: ServiceClient] = [:]
        var routines = 0
        for child in children {
            guard let watch = ServiceClient.connect(path: on.socket),
                  try watch.request(ServiceRequest(.subscribe(child: child))).ok else { throw BenchError("\(on.name): subscribe \(child)") }
            watchers[child] = watch
            let state = try look.request(ServiceRequest(.state(child: child)))
            routines += state.screen?.state.plan.items.count ?? 0
        }
        // Timed presses per routine: odd (done, undo, …, done), enough for `presses` in all.
        var perRoutine = max(1, Int((Double(presses) / Double(max(routines, 1))).rounded(.up)))
        if perRoutine % 2 == 0 { perRoutine += 1 }
        var out: [Double] = []
        for child in children {
            guard let watch = watchers[child] else { continue }
            while out.count < presses {
                guard let before = try look.request(ServiceRequest(.state(child: child))).screen?.state.plan,
                      before.items.contains(where: { !$0.isCompleted }) else { break }
                for k in 0..<perRoutine where out.count < presses {
                    let action: PressAction = k % 2 == 0 ? .done : .undo
                    while (try? watch.readLine(until: Date().addingTimeInterval(0.001))) ?? nil != nil {}   // earlier events: not this press's
                    let t = now()
                    let reply = try press.request(ServiceRequest(.press(action, child: child)))
                    guard reply.ok, let result = reply.press, result.saved else { throw BenchError("press refused: \(String(describing: reply))") }
                    var seen: UInt64?
                    let deadline = Date().addingTimeInterval(10)
                    while seen == nil, Date() < deadline {
                        _ = try watch.readLine(until: Date().addingTimeInterval(0.005))
                        let plan = try look.request(ServiceRequest(.state(child: child))).screen?.state.plan
                        if plan?.items.filter(\.isCompleted).count == result.completed { seen = now() }
                    }
                    guard let seen else { throw BenchError("\(on.name) did not show \(child)'s press within 10 s") }
                    out.append(ms(seen - t))
                }
                // Closes the undo window on the last done: the next routine becomes the current one.
                if out.count < presses { _ = try press.request(ServiceRequest(.press(.next, child: child))) }
            }
        }
        guard out.count == presses else { throw BenchError("only \(out.count) presses: too few routines") }
        return out
    }
}
