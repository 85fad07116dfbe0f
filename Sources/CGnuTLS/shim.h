#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <gnutls/crypto.h>
#include <clazy.h>

// Macros Swift does not import (a function-like macro, and `gnutls_free` is both a variable and a
// macro that assigns to its argument): expose them as functions.
static inline unsigned int cgnutls_p256_bits(void) { return GNUTLS_CURVE_TO_BITS(GNUTLS_ECC_CURVE_SECP256R1); }
static inline void cgnutls_free_datum(gnutls_datum_t *d) {
    if (d->data) { clazy_gnutls_free(d->data); }
    d->size = 0;
}
