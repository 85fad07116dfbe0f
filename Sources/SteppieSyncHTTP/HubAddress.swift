/// Where a hub answers: `https://HOST:PORT`, the host an IPv4 or IPv6 literal (in brackets) or a
/// name, the port always written (a hub's port is whatever its guardian chose).
package struct HubAddress: Hashable, Sendable, CustomStringConvertible {
    /// The host without brackets (`192.168.1.20`, `::1`, `hub.local`).
    package let host: String
    package let port: UInt16

    package init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Reads `https://HOST:PORT` (a trailing `/` allowed); nil for anything else.
    package init?(_ text: String) {
        let scheme = "https://"
        guard text.lowercased().hasPrefix(scheme) else { return nil }
        var rest = Substring(text.dropFirst(scheme.count))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        let host: Substring, portText: Substring
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]"), rest[rest.index(after: close)...].hasPrefix(":") else { return nil }
            host = rest[rest.index(after: rest.startIndex)..<close]
            portText = rest[rest.index(close, offsetBy: 2)...]
            guard host.contains(":") else { return nil }
        } else {
            guard let colon = rest.lastIndex(of: ":") else { return nil }
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
            guard !host.contains(":") else { return nil }
        }
        guard !host.isEmpty, host.utf8.count <= 253,
              host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == ":") }),
              portText.allSatisfy(\.isNumber), let port = UInt16(portText), port > 0 else { return nil }
        self.init(host: String(host), port: port)
    }

    /// `HOST:PORT` with an IPv6 literal in brackets: the request's `Host` header.
    package var authority: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    package var description: String { "https://\(authority)" }
}
