#include <sodium.h>

// Composite macros Swift does not import reliably: expose them as functions.
static inline size_t csodium_pwhash_strbytes(void) { return crypto_pwhash_STRBYTES; }
static inline int csodium_pwhash_alg_argon2id13(void) { return crypto_pwhash_ALG_ARGON2ID13; }
static inline unsigned long long csodium_pwhash_opslimit_interactive(void) { return crypto_pwhash_OPSLIMIT_INTERACTIVE; }
static inline size_t csodium_pwhash_memlimit_interactive(void) { return crypto_pwhash_MEMLIMIT_INTERACTIVE; }
static inline unsigned long long csodium_pwhash_opslimit_moderate(void) { return crypto_pwhash_OPSLIMIT_MODERATE; }
static inline size_t csodium_pwhash_memlimit_moderate(void) { return crypto_pwhash_MEMLIMIT_MODERATE; }
static inline size_t csodium_hash_sha256_bytes(void) { return crypto_hash_sha256_BYTES; }
