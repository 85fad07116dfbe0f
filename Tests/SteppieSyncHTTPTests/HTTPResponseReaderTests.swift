import SteppieSyncHTTP
import Testing

/// The answer's framing, fed as it may arrive: whole, byte by byte, or cut short.
@Suite struct HTTPResponseReaderTests {
    static func read(_ text: String, limit: Int = 1024, pieceSize: Int? = nil, close: Bool = false) throws(SyncTransportError) -> SyncHTTPResponse? {
        var reader = HTTPResponseReader(bodyLimit: limit)
        let bytes = Array(text.utf8)
        let size = pieceSize ?? max(bytes.count, 1)
        var i = 0
        while i < bytes.count {
            if try reader.take(Array(bytes[i..<min(i + size, bytes.count)])) { return reader.response }
            i += size
        }
        return close ? try reader.finish() : reader.response
    }

    static func failure(_ body: () throws -> SyncHTTPResponse?) -> SyncTransportError? {
        do { _ = try body() } catch let error as SyncTransportError { return error } catch { Issue.record("\(error)") }
        return nil
    }

    @Test(arguments: [nil, 1, 3, 7])
    func aDeclaredLengthIsReadWholeInAnyPieces(pieceSize: Int?) throws {
        let text = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 12\r\nX-Other: a\r\n\r\n{\"a\":[1,2]}\nTRAILING"
        let response = try #require(try Self.read(text, pieceSize: pieceSize))
        #expect(response.status == 200 && response.headers["content-type"] == "application/json")
        #expect(String(decoding: response.body, as: UTF8.self) == "{\"a\":[1,2]}\n")
    }

    @Test(arguments: [nil, 1, 2, 5])
    func chunksAreJoinedInAnyPieces(pieceSize: Int?) throws {
        let text = "HTTP/1.1 409 Conflict\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"ref\r\n9;ext=1\r\nusal\":{}}\r\n0\r\nX-Trailer: y\r\n\r\n"
        let response = try #require(try Self.read(text, pieceSize: pieceSize))
        #expect(response.status == 409)
        #expect(String(decoding: response.body, as: UTF8.self) == "{\"refusal\":{}}")
    }

    @Test func headerValuesLoseTheirBlanksAtBothEndsOnly() throws {
        let text = "HTTP/1.1 200 OK\r\nX-A: \t  a b\t \r\nX-B:c\r\nX-C:   \r\nX-D:  caf\u{E9}  \r\nX-E: \u{301}x \r\n"
            + "Transfer-Encoding: gzip ,\tchunked \r\n\r\n0\r\n\r\n"
        let response = try #require(try Self.read(text))
        #expect(response.headers["x-a"] == "a b")
        #expect(response.headers["x-b"] == "c")
        #expect(response.headers["x-c"] == "")
        #expect(response.headers["x-d"] == "caf\u{E9}")
        // A blank a combining mark follows is one character with it, and stays (as it always did).
        #expect(response.headers["x-e"] == " \u{301}x")
        #expect(response.status == 200 && response.body.isEmpty)
    }

    @Test func aBodyOverTheLimitIsRefusedAsSoonAsItIsKnown() {
        // Declared: at the head, before any byte of the body.
        #expect(Self.failure { try Self.read("HTTP/1.1 200 OK\r\nContent-Length: 1025\r\n\r\n", limit: 1024) } == .responseTooLarge(limit: 1024))
        // Chunked: at the chunk that passes it.
        let chunks = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n200\r\n" + String(repeating: "a", count: 512) + "\r\n201\r\n"
        #expect(Self.failure { try Self.read(chunks, limit: 1024) } == .responseTooLarge(limit: 1024))
        // Until the end of the connection: as it arrives.
        let open = "HTTP/1.1 200 OK\r\n\r\n" + String(repeating: "a", count: 1025)
        #expect(Self.failure { try Self.read(open, limit: 1024, pieceSize: 100) } == .responseTooLarge(limit: 1024))
    }

    @Test func aBodyWithoutLengthEndsWithTheConnection() throws {
        let response = try #require(try Self.read("HTTP/1.0 200 OK\r\n\r\n{}", close: true))
        #expect(response.body == Array("{}".utf8))
    }

    @Test func anAnswerCutShortOrNotHTTPIsBad() {
        let bad: [String] = [
            "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{}",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab",
            "SSH-2.0-OpenSSH\r\n\r\n",
            "HTTP/1.1 20 OK\r\n\r\n",
            "HTTP/1.1 200 OK\r\nno colon\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: +1\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabXY",
        ]
        for text in bad {
            guard case .badResponse? = Self.failure({ try Self.read(text, close: true) }) else {
                Issue.record("not refused as bad: \(text.debugDescription)")
                continue
            }
        }
    }

    @Test func aHeadThatNeverEndsIsRefused() {
        let endless = "HTTP/1.1 200 OK\r\n" + String(repeating: "X-A: b\r\n", count: HTTPResponseReader.headLimit / 8 + 1)
        guard case .badResponse? = Self.failure({ try Self.read(endless, pieceSize: 4096) }) else {
            Issue.record("an endless head was taken")
            return
        }
    }
}

/// `https://HOST:PORT` as a guardian types it.
@Suite struct HubAddressTests {
    @Test func addressesAreReadWithTheirPort() {
        #expect(HubAddress("https://192.168.1.20:8471") == HubAddress(host: "192.168.1.20", port: 8471))
        #expect(HubAddress("HTTPS://hub.local:8471/") == HubAddress(host: "hub.local", port: 8471))
        #expect(HubAddress("https://[::1]:8471")?.authority == "[::1]:8471")
        #expect(HubAddress("https://[fe80::1%25eth0]:1") == nil)
        for text in ["http://1.2.3.4:80", "https://1.2.3.4", "https://1.2.3.4:0", "https://1.2.3.4:70000", "https://:80",
                     "https://::1:80", "https://a b:80", "https://hub.local:80/path", "https://[::1]80", "https://[]:80", "https://h:8a"] {
            #expect(HubAddress(text) == nil, "\(text)")
        }
        #expect(HubAddress(host: "hub.local", port: 8471).description == "https://hub.local:8471")
    }
}
