#ifndef PERFBOT_RNG_H
#define PERFBOT_RNG_H
/*
 * A small seeded pseudo-random generator (xoshiro256**, state filled by
 * splitmix64), for everything that must be random yet repeatable: the
 * simulated histories of bisect/sim.c and bench/, and the permutation
 * tests of change-point detection.  The same seed gives the same stream
 * on every machine; there is no global state.
 */
#include <stdint.h>

struct rng {
	uint64_t s[4];
};

/* Seed from one 64-bit value (any value, 0 included, is fine). */
void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, 1), 53 random bits. */
double rng_uniform(struct rng *r);
/* Uniform integer in [0, n), n > 0. */
uint64_t rng_below(struct rng *r, uint64_t n);
/* Standard normal (Marsaglia's polar method; the spare value is dropped
 * so that the state stays four words). */
double rng_normal(struct rng *r);

/*
 * A seed derived from seed and two integers, so that independent streams
 * (history i's layout and its noise; one segment's permutations) do not
 * depend on the order in which they are drawn.
 */
uint64_t rng_derive(uint64_t seed, uint64_t a, uint64_t b);

#endif
