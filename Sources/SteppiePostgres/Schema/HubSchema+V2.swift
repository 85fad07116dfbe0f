extension HubSchema {
    /// `steppie hub` itself (docs/centre.md):
    ///
    /// - `blobs`: photos' and recordings' content, named by the SHA-256 of its bytes (checked as
    ///   on the household hub before it is stored; `size` is the bytes' length).
    /// - `hub_identity`: one row, the hub's TLS certificate and private key (PEM) and the
    ///   certificate's fingerprint, made by the first `steppie hub` process under the `hub_state`
    ///   row lock, so every process of the centre presents the same certificate. The key is in the
    ///   database: only the hub's role may read it.
    static let v2BlobsIdentity = PostgresMigration("2026-12-hub-v2-blobs-identity", [
        """
        CREATE TABLE blobs (
            sha256 text PRIMARY KEY CHECK (sha256 ~ \(hashCheck)),
            bytes bytea NOT NULL,
            size bigint NOT NULL CHECK (size = octet_length(bytes)),
            stored_at timestamptz NOT NULL DEFAULT now()
        )
        """,
        """
        CREATE TABLE hub_identity (
            id text PRIMARY KEY CHECK (id = 'singleton'),
            certificate_pem text NOT NULL,
            private_key_pem text NOT NULL,
            fingerprint text NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now()
        )
        """,
    ])
}
