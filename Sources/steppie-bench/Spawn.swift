import Foundation

/// Runs a program with posix_spawn and waits with wait4, for its exit status and peak RSS.
/// (Foundation's Process gives no resource usage.)
enum Spawn {
    struct Result {
        let status: Int32
        let maxRSSKiB: Int
        let startNs: UInt64
        let endNs: UInt64
    }

    static func run(_ path: String, _ args: [String], environment: [String: String], stdinPath: String? = nil) throws -> Result {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdinPath ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + args).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let rc = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard rc == 0 else { throw BenchError.wrong("posix_spawn \(path): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        var usage = rusage()
        wait4(pid, &status, 0, &usage)
        let end = DispatchTime.now().uptimeNanoseconds
        return Result(status: (status >> 8) & 0xFF, maxRSSKiB: usage.ru_maxrss, startNs: start, endNs: end)
    }
}
