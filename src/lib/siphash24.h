/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* SipHash-2-4 (Aumasson and Bernstein) of `len` bytes under a 16-byte key.
 * systemd uses it to shorten over-long unit names; we must produce the same
 * names, so we need the same function. */
uint64_t siphash24(const void *data, size_t len, const uint8_t key[16]);
