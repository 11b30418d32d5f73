/* The reference: how fast a plain C loop draws xoshiro256++ words.
 *
 * Each thread runs its own generator (seeded by SplitMix64, as the Rust
 * rand_xoshiro `seed_from_u64` does) and folds every word into a sum so the
 * compiler cannot drop the loop. Prints one line: words per second over all
 * threads (wall clock), then words per second of CPU time, which a busy
 * machine disturbs far less. Usage: xoshiro [threads=2] [words per thread=2^30]
 * [lookups]. Build: cc -O3 -pthread benches/reference/xoshiro.c -o xoshiro
 *
 * With `lookups`, each word is also cut into four 15-bit indices into a
 * 32 KiB table, and the four bytes found are counted, as a sampler that
 * looks its outcome up and counts keys does: the reference for how well a
 * table-bound loop scales from one thread to two on this machine (the
 * threads share no cache line, but may share a core's caches).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* One xoshiro256++ word. */
static inline uint64_t next(uint64_t s[4]) {
    uint64_t r = rotl(s[0] + s[3], 23) + s[0];
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return r;
}

struct job {
    uint64_t seed, words, sum;
    int lookups;
};

static unsigned char table[1 << 15];

static void *run(void *arg) {
    struct job *j = arg;
    uint64_t sm = j->seed, s[4];
    for (int i = 0; i < 4; i++) s[i] = splitmix(&sm);
    uint64_t sum = 0;
    if (j->lookups) {
        uint64_t counts[4][256] = {{0}};
        for (uint64_t n = 0; n < j->words; n++) {
            uint64_t r = next(s);
            for (int lane = 0; lane < 4; lane++)
                counts[lane][table[(r >> (15 * lane)) & 0x7fff]]++;
        }
        for (int k = 0; k < 256; k++) sum += counts[0][k] * k + counts[3][k];
        j->sum = sum;
        return NULL;
    }
    for (uint64_t n = 0; n < j->words; n++) {
        uint64_t r = next(s);
        sum += r;
    }
    j->sum = sum;
    return NULL;
}

int main(int argc, char **argv) {
    int threads = argc > 1 ? atoi(argv[1]) : 2;
    uint64_t words = argc > 2 ? strtoull(argv[2], NULL, 10) : (1ULL << 30);
    int lookups = argc > 3 && strcmp(argv[3], "lookups") == 0;
    if (threads < 1 || threads > 256) return 2;
    uint64_t fill = 7;
    for (int i = 0; i < (1 << 15); i++) table[i] = (unsigned char)splitmix(&fill);
    pthread_t tid[256];
    struct job jobs[256];
    struct timespec t0, t1, c0, c1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    for (int i = 0; i < threads; i++) {
        jobs[i] = (struct job){.seed = (uint64_t)i + 1, .words = words, .lookups = lookups};
        pthread_create(&tid[i], NULL, run, &jobs[i]);
    }
    uint64_t check = 0;
    for (int i = 0; i < threads; i++) {
        pthread_join(tid[i], NULL);
        check ^= jobs[i].sum;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    double secs = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
    double cpu = (c1.tv_sec - c0.tv_sec) + 1e-9 * (c1.tv_nsec - c0.tv_nsec);
    printf("%.4e words/s %.4e words/cpu-s (%d threads, checksum %016llx)\n",
           (double)words * threads / secs, (double)words * threads / cpu, threads,
           (unsigned long long)check);
    return 0;
}
