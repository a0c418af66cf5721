/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include "siphash24.h"

static uint64_t rotl64(uint64_t x, unsigned b) {
        return (x << b) | (x >> (64 - b));
}

static uint64_t load_le64(const uint8_t *p) {
        uint64_t v = 0;
        for (unsigned i = 0; i < 8; i++)
                v |= (uint64_t) p[i] << (8 * i);
        return v;
}

/* clang-format off */
#define SIPROUND(v0, v1, v2, v3)                                                              \
        do {                                                                                  \
                v0 += v1; v1 = rotl64(v1, 13); v1 ^= v0; v0 = rotl64(v0, 32);                 \
                v2 += v3; v3 = rotl64(v3, 16); v3 ^= v2;                                      \
                v0 += v3; v3 = rotl64(v3, 21); v3 ^= v0;                                      \
                v2 += v1; v1 = rotl64(v1, 17); v1 ^= v2; v2 = rotl64(v2, 32);                 \
        } while (0)
/* clang-format on */

uint64_t siphash24(const void *data, size_t len, const uint8_t key[16]) {
        const uint8_t *in = data;
        uint64_t k0 = load_le64(key), k1 = load_le64(key + 8);
        uint64_t v0 = 0x736f6d6570736575ULL ^ k0;
        uint64_t v1 = 0x646f72616e646f6dULL ^ k1;
        uint64_t v2 = 0x6c7967656e657261ULL ^ k0;
        uint64_t v3 = 0x7465646279746573ULL ^ k1;
        uint8_t tail[8] = {};
        size_t full = len - len % 8;
        uint64_t m;

        for (size_t i = 0; i < full; i += 8) {
                m = load_le64(in + i);
                v3 ^= m;
                SIPROUND(v0, v1, v2, v3);
                SIPROUND(v0, v1, v2, v3);
                v0 ^= m;
        }

        memcpy(tail, in + full, len % 8);
        m = load_le64(tail) | ((uint64_t) (len & 0xff) << 56);
        v3 ^= m;
        SIPROUND(v0, v1, v2, v3);
        SIPROUND(v0, v1, v2, v3);
        v0 ^= m;

        v2 ^= 0xff;
        for (unsigned i = 0; i < 4; i++)
                SIPROUND(v0, v1, v2, v3);
        return v0 ^ v1 ^ v2 ^ v3;
}
