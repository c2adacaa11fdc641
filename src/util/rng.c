/*
 * rng.c: xoshiro256** (Blackman and Vigna), its state filled by
 * splitmix64; see rng.h.
 */
#include "util/rng.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	/* splitmix64 never yields four zero words, which xoshiro must avoid */
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double rng_uniform(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

uint64_t rng_below(struct rng *r, uint64_t n)
{
	/* rejection keeps it exactly uniform when n does not divide 2^64 */
	uint64_t limit = UINT64_MAX - UINT64_MAX % n, x;

	do
		x = rng_next(r);
	while (x >= limit);
	return x % n;
}

double rng_normal(struct rng *r)
{
	double u, v, s;

	do {
		u = 2 * rng_uniform(r) - 1;
		v = 2 * rng_uniform(r) - 1;
		s = u * u + v * v;
	} while (s >= 1 || s == 0);
	return u * sqrt(-2 * log(s) / s);
}

uint64_t rng_derive(uint64_t seed, uint64_t a, uint64_t b)
{
	uint64_t x = seed, y;

	y = splitmix64(&x) + a;
	y = splitmix64(&y) + b;
	return splitmix64(&y);
}
