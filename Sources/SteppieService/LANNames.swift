import Foundation

/// The names a guardian's phone reaches the device by on the home network: the host name (and its
/// `.local` name, which mDNS answers on most home networks) and the addresses of the network
/// interfaces. The HTTPS server accepts them (with its port) as `Host`, and a new certificate
/// names them.
public struct LANNames: Sendable, Equatable {
    /// Host names, lowercased (`kiosk`, `kiosk.local`).
    public var hostNames: [String]
    /// IP literals (IPv6 without brackets), the first one the best to show.
    public var addresses: [String]

    public init(hostNames: [String], addresses: [String]) {
        self.hostNames = hostNames
        self.addresses = addresses
    }

    /// The names of this machine for a server bound to `bindAddress`: a wildcard (`0.0.0.0`, `::`)
    /// means every interface's address, a specific address only that one.
    public static func current(bindAddress: String) -> LANNames {
        var hosts: [String] = []
        var buffer = [CChar](repeating: 0, count: 256)
        if gethostname(&buffer, buffer.count - 1) == 0 {
            let name = Self.text(buffer).lowercased()
            if !name.isEmpty && name != "localhost" {
                hosts.append(name)
                if !name.contains(".") { hosts.append(name + ".local") }
            }
        }
        let wildcard = bindAddress == "0.0.0.0" || bindAddress == "::"
        return LANNames(hostNames: hosts, addresses: wildcard ? interfaceAddresses() : [bindAddress])
    }

    /// Every interface's address: IPv4 first, then IPv6 without link-local ones (they need a zone
    /// a browser's address bar does not take); loopback last.
    public static func interfaceAddresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var v4: [String] = [], v6: [String] = [], loopback: [String] = []
        var next: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = next {
            next = entry.pointee.ifa_next
            guard let sa = entry.pointee.ifa_addr else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let family = Int32(sa.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard getnameinfo(sa, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            let text = Self.text(host)
            if entry.pointee.ifa_flags & UInt32(IFF_LOOPBACK) != 0 {
                loopback.append(text)
            } else if family == AF_INET {
                v4.append(text)
            } else if !text.lowercased().hasPrefix("fe80") && !text.contains("%") {
                v6.append(text)
            }
        }
        var seen: Set<String> = []
        return (v4 + v6 + loopback).filter { seen.insert($0).inserted }
    }

    /// A NUL-terminated C buffer as text.
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The address to show first (not loopback when there is another), else the first host name.
    public var display: String {
        addresses.first { $0 != "127.0.0.1" && $0 != "::1" } ?? addresses.first ?? hostNames.first ?? "localhost"
    }

    /// The addresses a certificate names: all but loopback, unless loopback is all there is.
    public var certificateAddresses: [String] {
        let outside = addresses.filter { $0 != "127.0.0.1" && $0 != "::1" }
        return outside.isEmpty ? addresses : outside
    }
}
