#ifndef MUSTER_CSODIUM_SHIM_H
#define MUSTER_CSODIUM_SHIM_H

/*
 * Bridge from Swift to libsodium (system package libsodium-dev, 1.0.18+).
 *
 * Only helpers that Swift cannot express directly live here; everything
 * else is called straight from MusterCrypto. Helpers carry a muster_ prefix
 * so they never collide with libsodium's own symbols.
 */

#include <stddef.h>
#include <sodium.h>

/*
 * Alignment the incremental BLAKE2b state needs. The struct is declared with
 * CRYPTO_ALIGN(64), which Swift's allocators do not honour on their own, so
 * MusterCrypto allocates the state by hand with this alignment.
 */
static inline size_t muster_generichash_state_alignment(void) {
    return _Alignof(crypto_generichash_state);
}

/*
 * Alignment of the secretstream state. libsodium 1.0.18 declares it without
 * CRYPTO_ALIGN, but MusterCrypto asks rather than assumes, so a libsodium that
 * over-aligns it later still gets correctly placed state.
 */
static inline size_t muster_secretstream_state_alignment(void) {
    return _Alignof(crypto_secretstream_xchacha20poly1305_state);
}

#endif /* MUSTER_CSODIUM_SHIM_H */
