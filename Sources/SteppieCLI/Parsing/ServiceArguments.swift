import Foundation
import SteppieInput

/// `serve --http ADDR:PORT|none`: the kiosk pages' address, loopback only (the child's page has
/// no sign-in, so nothing from the network may reach it). `localhost` means 127.0.0.1.
struct LoopbackAddress: ArgumentValue, Equatable {
    /// nil: `none`, the pages are off.
    var address: String?
    var port: UInt16

    static let `default` = LoopbackAddress(address: "127.0.0.1", port: 8470)

    static func parse(argument value: String) -> Result<LoopbackAddress, ArgumentRefusal> {
        if value == "none" { return .success(LoopbackAddress(address: nil, port: 0)) }
        let refused = ArgumentRefusal.expected(key: "cli.expected.httpAddress")
        guard let colon = value.lastIndex(of: ":"), let port = UInt16(value[value.index(after: colon)...]) else {
            return .failure(refused)
        }
        var address = String(value[..<colon])
        if address.hasPrefix("["), address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
        if address == "localhost" { address = "127.0.0.1" }
        var v4 = in_addr()
        let loopback = address == "::1" || (address.hasPrefix("127.") && inet_pton(AF_INET, address, &v4) == 1)
        return loopback ? .success(LoopbackAddress(address: address, port: port)) : .failure(refused)
    }
}

/// `serve --guardian-lan [ADDR[:PORT]]`: `ADDR`, `ADDR:PORT`, `[IPV6]:PORT` or a bare IPv6
/// address, an IP literal this machine can bind; alone it is 0.0.0.0:8471.
struct LANAddress: ArgumentValue, Equatable {
    var address: String
    var port: UInt16

    static let `default` = LANAddress(address: "0.0.0.0", port: 8471)

    static func parse(argument value: String) -> Result<LANAddress, ArgumentRefusal> {
        let refused = ArgumentRefusal.expected(key: "cli.expected.lanAddress")
        var address = value, port = LANAddress.default.port
        if value.hasPrefix("[") {
            guard let close = value.firstIndex(of: "]") else { return .failure(refused) }
            address = String(value[value.index(after: value.startIndex)..<close])
            let rest = value[value.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let p = UInt16(rest.dropFirst()) else { return .failure(refused) }
                port = p
            }
        } else if value.filter({ $0 == ":" }).count == 1, let colon = value.firstIndex(of: ":") {
            guard let p = UInt16(value[value.index(after: colon)...]) else { return .failure(refused) }
            address = String(value[..<colon])
            port = p
        }
        var v4 = in_addr(), v6 = in6_addr()
        guard inet_pton(AF_INET, address, &v4) == 1 || inet_pton(AF_INET6, address, &v6) == 1 else { return .failure(refused) }
        return .success(LANAddress(address: address, port: port))
    }
}

/// `--button PATH[:MAP]`: a button device and its key map (docs/buttons.md).
extension ButtonSpec: ArgumentValue {
    public static func parse(argument text: String) -> Result<ButtonSpec, ArgumentRefusal> {
        do throws(ButtonSpecError) { return .success(try ButtonSpec(parsing: text)) } catch {
            return .failure(.reason(key: error.catalogKey, arguments: error.arguments))
        }
    }
}

/// `buttons add --map MAP`: which keys mean done, undo and next (docs/buttons.md).
extension ButtonMap: ArgumentValue {
    public static func parse(argument text: String) -> Result<ButtonMap, ArgumentRefusal> {
        do throws(ButtonSpecError) { return .success(try ButtonMap(parsing: text)) } catch {
            return .failure(.reason(key: error.catalogKey, arguments: error.arguments))
        }
    }
}
