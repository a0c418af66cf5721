/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The fuzz target without libFuzzer (gcc builds, the ASan+UBSan stage): each
 * seed as it is, then ITERATIONS inputs made from the seeds by random byte
 * flips, insertions, deletions and splices, with a fixed PRNG seed so that a
 * failure can be replayed. Usage: fuzz-check-loop SEED_DIR ITERATIONS [SEED] */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define INPUT_MAX 8192

static uint64_t rng_state;

static uint64_t rng(void) {
        /* xorshift64* */
        rng_state ^= rng_state >> 12;
        rng_state ^= rng_state << 25;
        rng_state ^= rng_state >> 27;
        return rng_state * 2685821657736338717ULL;
}

struct seed {
        uint8_t *data;
        size_t size;
};

static size_t mutate(uint8_t *buf, size_t size, const struct seed *seeds, size_t n_seeds) {
        static const uint8_t interesting[] = {0,   '\n', ' ', '\t', '#', '"',  '\\', '(',  ')',  ',', '=',
                                              ':', '/',  '[', ']',  '-', 0xff, 0x80, 0xc3, 0x1b, '*', '.'};
        unsigned rounds = 1 + (unsigned) (rng() % 8);

        for (unsigned i = 0; i < rounds; i++) {
                size_t pos = size ? (size_t) (rng() % size) : 0;
                switch (rng() % 6) {
                case 0: /* flip a bit */
                        if (size)
                                buf[pos] ^= (uint8_t) (1u << (rng() % 8));
                        break;
                case 1: /* a byte the parsers care about */
                        if (size)
                                buf[pos] = interesting[rng() % sizeof(interesting)];
                        break;
                case 2: /* insert one */
                        if (size < INPUT_MAX) {
                                memmove(buf + pos + 1, buf + pos, size - pos);
                                buf[pos] = interesting[rng() % sizeof(interesting)];
                                size++;
                        }
                        break;
                case 3: { /* delete a run */
                        size_t len = size - pos > 0 ? 1 + (size_t) (rng() % 16) : 0;
                        if (len > size - pos)
                                len = size - pos;
                        memmove(buf + pos, buf + pos + len, size - pos - len);
                        size -= len;
                        break;
                }
                case 4: { /* splice in part of another seed */
                        const struct seed *s = &seeds[rng() % n_seeds];
                        size_t from, len;
                        if (s->size == 0)
                                break;
                        from = (size_t) (rng() % s->size);
                        len = 1 + (size_t) (rng() % (s->size - from));
                        if (len > INPUT_MAX - size)
                                len = INPUT_MAX - size;
                        memmove(buf + pos + len, buf + pos, size - pos);
                        memcpy(buf + pos, s->data + from, len);
                        size += len;
                        break;
                }
                case 5: /* random unit state */
                        if (size >= 3)
                                buf[rng() % 3] = (uint8_t) rng();
                        break;
                }
        }
        return size;
}

int main(int argc, char *argv[]) {
        struct seed seeds[256];
        size_t n_seeds = 0;
        unsigned long iterations;
        uint8_t *buf;
        struct dirent *de;
        DIR *d;

        if (argc < 3) {
                fprintf(stderr, "Usage: %s SEED_DIR ITERATIONS [SEED]\n", argv[0]);
                return 2;
        }
        iterations = strtoul(argv[2], NULL, 10);
        rng_state = argc > 3 ? strtoull(argv[3], NULL, 0) : 0x9e3779b97f4a7c15ULL;
        if (rng_state == 0)
                rng_state = 1;

        d = opendir(argv[1]);
        if (!d) {
                perror(argv[1]);
                return 2;
        }
        while ((de = readdir(d)) && n_seeds < 256) {
                char path[4096];
                FILE *f;
                if (de->d_name[0] == '.')
                        continue;
                snprintf(path, sizeof(path), "%s/%s", argv[1], de->d_name);
                f = fopen(path, "rb");
                if (!f)
                        continue;
                seeds[n_seeds].data = malloc(INPUT_MAX);
                seeds[n_seeds].size = fread(seeds[n_seeds].data, 1, INPUT_MAX, f);
                fclose(f);
                LLVMFuzzerTestOneInput(seeds[n_seeds].data, seeds[n_seeds].size);
                n_seeds++;
        }
        closedir(d);
        if (n_seeds == 0) {
                fprintf(stderr, "no seeds in %s\n", argv[1]);
                return 2;
        }

        buf = malloc(INPUT_MAX);
        for (unsigned long i = 0; i < iterations; i++) {
                const struct seed *s = &seeds[rng() % n_seeds];
                size_t size = s->size;
                memcpy(buf, s->data, size);
                size = mutate(buf, size, seeds, n_seeds);
                LLVMFuzzerTestOneInput(buf, size);
        }
        printf("%zu seeds, %lu mutated inputs: no crash\n", n_seeds, iterations);
        free(buf);
        for (size_t i = 0; i < n_seeds; i++)
                free(seeds[i].data);
        return 0;
}
