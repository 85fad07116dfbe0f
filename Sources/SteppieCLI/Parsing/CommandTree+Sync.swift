import SteppieSyncAgent

// `sync invite|join|now|status|digest|leave`: a household's devices kept in step through a hub (issue 27,
// docs/sync.md). `serve --hub` makes a service the hub.
extension CommandTree {
    static let syncArea: [CommandSpec] = [
        CommandSpec("sync", abstract: "cli.sync.abstract", subcommands: [
            CommandSpec("invite", abstract: "cli.sync.invite.abstract", options: [
                .value("--child", "NAME", help: "cli.option.syncChild", repeatable: true),
                json,
            ], run: GuardianAccess.changing(SyncCommands.invite)),
            CommandSpec("join", abstract: "cli.sync.join.abstract", options: [
                .value("--code", "CODE", help: "cli.option.syncCode"),
                .value("--fingerprint", "SHA256", help: "cli.option.syncFingerprint"),
                .value("--name", "NAME", help: "cli.option.syncName"),
                json,
            ], positionals: [PositionalSpec("URL", help: "cli.argument.hubURL", type: .of(HubURL.self))],
               rules: [.required("--code"), .required("--fingerprint")], run: GuardianAccess.changing(SyncCommands.join)),
            CommandSpec("now", abstract: "cli.sync.now.abstract", options: [json], run: SyncCommands.now),
            CommandSpec("status", abstract: "cli.sync.status.abstract", options: [json], run: GuardianAccess.looking(SyncCommands.status)),
            CommandSpec("digest", abstract: "cli.sync.digest.abstract", options: [json], run: GuardianAccess.looking(SyncCommands.digest)),
            CommandSpec("leave", abstract: "cli.sync.leave.abstract", run: GuardianAccess.changing(SyncCommands.leave)),
            CommandSpec("remove", abstract: "cli.sync.remove.abstract",
                        positionals: [PositionalSpec("DEVICE", help: "cli.argument.syncDevice")], run: GuardianAccess.changing(SyncCommands.remove)),
        ]),
    ]
}

/// `sync join URL`: the hub's address as `https://ADDR:PORT` (the address `sync invite` names).
struct HubURL: ArgumentValue {
    let text: String

    static func parse(argument text: String) -> Result<HubURL, ArgumentRefusal> {
        guard text.hasPrefix("https://"), SyncRound.isHubAddress(text) else { return .failure(.expected(key: "cli.expected.hubURL")) }
        return .success(HubURL(text: text))
    }
}

/// `serve --hub ADDR:PORT`: where the hub listens (an address of this machine and a port, both
/// given; port 0 takes a free one, which the service's log names).
struct HubListen: ArgumentValue {
    let address: String
    let port: UInt16

    static func parse(argument text: String) -> Result<HubListen, ArgumentRefusal> {
        guard !text.hasSuffix("]"), text.hasPrefix("[") || text.filter({ $0 == ":" }).count == 1, case .success(let parsed) = LANAddress.parse(argument: text) else { return .failure(.expected(key: "cli.expected.hubListen")) }
        return .success(HubListen(address: parsed.address, port: parsed.port))
    }
}
