import Foundation
import SteppieCore
import SteppieGuardianWeb
import SteppieHTTP

/// The route tables of the service's two page servers (docs/kiosk.md, docs/guardian-web.md):
/// - the kiosk's (loopback, plain HTTP): the child's page, its icons and scripts from `Web/`, the
///   screen as JSON and as Server-Sent Events, the child's three actions, and the guardian pages
///   behind the PIN;
/// - the home network's (HTTPS only): the guardian pages and their own scripts and icons — never
///   the child's page, its screen or its actions.
///
/// The HTTP threads never touch the store or the runtimes: screens are read from the `StateBoard`
/// the service publishes, and presses run on the service's thread (`press`, through the bridge).
enum KioskRoutes {
    /// Runs a press on the service's thread: (child id, op, version seen) → (status, JSON).
    /// One of the child's three actions, as the page's path names it (`/api/child/ID/done`).
    enum Tap: String, CaseIterable, Sendable {
        case done, undo, next
    }

    typealias Press = @Sendable (String, Tap, Int?) -> (status: Int, body: String)

    static func kiosk(board: StateBoard, webDirectory: URL, photosDirectory: URL?, guardian: GuardianWeb?,
                      press: @escaping Press) -> [HTTPRoute] {
        let web = webDirectory
        return [
            GuardianRoutes.route(guardian),
            .get("/") { _ in
                let children = board.childList
                if children.count == 1 { return .redirect("/child/\(children[0].id)") }
                return file(web, "index.html")
            },
            .get("/child/*") { r in
                board.screen(r.path[1]) == nil ? .error(404, "no such child") : file(web, "child.html")
            },
            .get("/static/*") { r in isPlainName(r.path[1]) ? file(web, r.path[1]) : .notFound },
            .get("/icons/*") { r in isBuiltinIcon(r.path[1]) ? file(web, "icons/" + r.path[1]) : .notFound },
            .get("/photos/*") { r in
                guard isPhotoName(r.path[1]), let photos = photosDirectory else { return .notFound }
                return file(photos, r.path[1])
            },
            .get("/api/children") { _ in
                struct Row: Encodable { var id: String; var name: String; var locale: String; var picture: KioskScreen.Icon }
                let rows = board.childList.map { Row(id: $0.id, name: $0.name, locale: $0.locale, picture: $0.picture) }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                let data = (try? encoder.encode(rows)) ?? Data("[]".utf8)
                return .json(200, String(decoding: data, as: UTF8.self))
            },
            .get("/api/child/*/state") { r in
                guard let screen = board.screen(r.path[2]) else { return .error(404, "no such child") }
                return .json(200, screen.json(now: board.clock.now()))
            },
            .get("/api/child/*/events") { r in
                let child = r.path[2]
                guard board.screen(child) != nil else { return .error(404, "no such child") }
                return HTTPResponse(status: 200, contentType: "text/event-stream; charset=utf-8",
                                    body: .stream { peer in KioskEventStream(board: board, child: child, peer: peer) })
            },
            .post("/api/child/*/*") { r in tap(r, press: press) },
            HTTPRoute(nil, "/**") { r in r.method == "GET" || r.method == "POST" ? .notFound : .error(405, "method not allowed") },
        ]
    }

    /// Outside `/guardian/` the home network gets only what the guardian pages load (their
    /// stylesheet and script, the builtin icons); `/` leads to the guardian pages. The child's
    /// page, its screen, its actions, the child list and the photos (no session reaches them:
    /// the cookie is for `/guardian` only) are not found.
    static func guardianLAN(webDirectory: URL, guardian: GuardianWeb) -> [HTTPRoute] {
        let web = webDirectory
        return [
            GuardianRoutes.route(guardian),
            .get("/") { _ in .redirect("/guardian/") },
            .get("/static/*") { r in lanStaticFiles.contains(r.path[1]) ? file(web, r.path[1]) : .notFound },
            .get("/icons/*") { r in isBuiltinIcon(r.path[1]) ? file(web, "icons/" + r.path[1]) : .notFound },
            HTTPRoute(nil, "/**") { _ in .notFound },
        ]
    }

    /// The static files the guardian pages load.
    static let lanStaticFiles: Set<String> = ["guardian.css", "guardian.js", "recorder-worklet.js"]

    /// One of the child's three actions, from the page's own origin, as JSON.
    static func tap(_ r: HTTPRequest, press: Press) -> HTTPResponse {
        guard let action = Tap(rawValue: r.path[3]) else { return .notFound }
        guard r.sameOrigin else { return .error(403, "origin") }
        guard r.header("Content-Type")?.lowercased().hasPrefix("application/json") == true else {
            return .error(415, "content type")
        }
        struct Body: Decodable { var version: Int? }
        let body = r.body.isEmpty ? Body(version: nil) : try? JSONDecoder().decode(Body.self, from: Data(r.body))
        guard let body else { return .error(400, "bad body") }
        let (status, json) = press(r.path[2], action, body.version)
        return .json(status, json)
    }

    /// A file of the pages, sent from disk. The limit is the photo limit the guardian pages and
    /// backups accept, so a photo they took is never the child's fallback; the page's own files
    /// are far smaller.
    static func file(_ directory: URL, _ relative: String) -> HTTPResponse {
        .file(directory.appendingPathComponent(relative).path, maxBytes: GuardianWeb.maxPhotoBytes)
    }

    static func isBuiltinIcon(_ name: String) -> Bool {
        name.hasSuffix(".svg") && BuiltinIcons.contains(String(name.dropLast(4)))
    }

    /// A photo's file name as the data contract allows it (`Validator.photoAssetName`): nothing
    /// that could leave the photo folder.
    static func isPhotoName(_ name: String) -> Bool {
        (try? Validator.photoAssetName(name)) != nil
    }

    static func isPlainName(_ name: String) -> Bool {
        name.count <= 64 && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_") }
            && !name.hasPrefix(".") && [".css", ".js", ".html"].contains { name.hasSuffix($0) }
    }
}
