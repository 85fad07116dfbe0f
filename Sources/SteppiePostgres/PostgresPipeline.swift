import CLibPQ
import Foundation

// Pipelines: several statements in one round trip (libpq's pipeline mode, PostgreSQL 14 and
// later). A push or a pull is a handful of short statements; sent one at a time, each waited for
// the server and the hub's thread to be scheduled in turn, and on a loaded machine that, not the
// statements, was most of their time.
extension PostgresConnection {
    /// The statement that opens a transaction as a pipeline's first step (`transaction(beginningWith:)`).
    static let begin = PostgresStatement("steppie_begin", "BEGIN")

    /// Runs `body` in a transaction whose `BEGIN` is sent with `first` as one pipeline, and hands
    /// it their results (indexed as `first`): one round trip less than `transaction` and then a
    /// pipeline. Commits as `transaction` does (or the body's last pipeline commits); any thrown
    /// error rolls everything back. Only as the outermost transaction.
    package func transaction<T>(beginningWith first: [Step], _ body: (PostgresConnection, Results) throws -> T) throws -> T {
        precondition(!inTransaction, "transaction(beginningWith:) opens the outermost transaction")
        return try transaction(opening: { c in
            let results = try c.pipeline([Step(Self.begin)] + first)
            results.offset = 1
            return results
        }, body)
    }

    /// A pipeline's last step that commits the transaction `transaction` opened (nothing may
    /// follow it in that transaction's body).
    package static let commit = PostgresStatement("steppie_commit", "COMMIT")

    /// One statement of a pipeline: prepared by name on the session, with its parameters.
    package struct Step {
        package let statement: PostgresStatement
        package let parameters: [PostgresValue]

        package init(_ statement: PostgresStatement, _ parameters: [PostgresValue] = []) {
            self.statement = statement
            self.parameters = parameters
        }
    }

    /// What a pipeline's statements returned, in the order of its steps. Owns the results and
    /// frees them when it goes; read it before the connection's next statement.
    package final class Results {
        private let results: [PGResult]
        private let names: [String]
        /// Steps the caller did not send itself (a `BEGIN` before them), skipped by the indices.
        fileprivate var offset = 0

        fileprivate init(results: [PGResult], names: [String]) {
            self.results = results
            self.names = names
        }

        deinit { results.forEach { PQclear($0) } }

        /// The rows step `index` returned, mapped.
        package func rows<T>(_ index: Int, _ row: (PostgresRow) throws -> T) throws -> [T] {
            try PostgresConnection.rows(results[index + offset], names[index + offset], row)
        }

        /// The first row step `index` returned, mapped, or nil.
        package func first<T>(_ index: Int, _ row: (PostgresRow) throws -> T) throws -> T? {
            try rows(index, row).first
        }

        /// The number of rows step `index` changed.
        package func affected(_ index: Int) -> Int { PostgresConnection.affected(results[index + offset]) }
    }

    /// Sends every step at once and reads their results in order: one round trip instead of one
    /// per statement. A statement not yet prepared on this session is prepared first (once per
    /// session). Each result is checked as `perform` checks one; the server skips what follows a
    /// failure up to the pipeline's end, and the first failure is thrown once every result is
    /// read, the session left as after that failure (inside a transaction: aborted, for the
    /// caller's `transaction` to roll back). Outside a transaction the pipeline is one:
    /// PostgreSQL runs everything up to its end as an implicit transaction.
    package func pipeline(_ steps: [Step]) throws -> Results {
        if isBroken { throw PostgresError.unavailable(message: "the connection was lost earlier") }
        // Everything that can be refused here is, before anything is sent: a half-sent pipeline
        // would leave the session in pipeline mode.
        for step in steps {
            for (index, value) in step.parameters.enumerated() {
                if case .text(let text) = value, PostgresValue.holdsNUL(text) { throw PostgresError.invalidParameter(index: index) }
            }
        }
        for step in steps { try prepare(step.statement) }
        guard PQenterPipelineMode(handle) == 1 else {
            throw PostgresError.unavailable(message: String(cString: PQerrorMessage(handle)))
        }
        var sent = 0
        for step in steps {
            let accepted = try withParameters(step.parameters) { count, values, lengths, formats, _ in
                PQsendQueryPrepared(handle, step.statement.name, count, values, lengths, formats, 0)
            }
            guard accepted == 1 else { break }
            sent += 1
        }
        guard sent == steps.count, PQpipelineSync(handle) == 1 else { try lost() }
        var results: [PGResult] = []
        var failure: (any Error)?
        for step in steps {
            guard let result = PQgetResult(handle) else { try lost(results) }
            if PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
                PQclear(result)
                failure = failure ?? PostgresError.server(sqlState: "25P02", message: "skipped after an earlier failure in the pipeline",
                                                          detail: nil, statement: step.statement.name)
            } else {
                do { results.append(try check(result, statement: step.statement.name)) } catch { failure = failure ?? error }
                if isBroken { try lost(results, failure) }
            }
            // Each statement's results end with a null.
            while let extra = PQgetResult(handle) { PQclear(extra) }
        }
        // The pipeline's end.
        guard let sync = PQgetResult(handle), PQresultStatus(sync) == PGRES_PIPELINE_SYNC else { try lost(results, failure) }
        PQclear(sync)
        guard PQexitPipelineMode(handle) == 1 else { try lost(results, failure) }
        if let failure {
            results.forEach { PQclear($0) }
            throw failure
        }
        return Results(results: results, names: steps.map(\.statement.name))
    }

    /// A pipeline the session could not finish: the connection is dropped by the pool.
    private func lost(_ results: [PGResult] = [], _ failure: (any Error)? = nil) throws -> Never {
        results.forEach { PQclear($0) }
        isBroken = true
        if let failure { throw failure }
        throw PostgresError.unavailable(message: String(cString: PQerrorMessage(handle)))
    }
}
