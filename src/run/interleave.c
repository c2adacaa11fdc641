/*
 * interleave.c: the runs of sides measured against each other, in turns
 * (interleave.h).
 */
#include "run/interleave.h"

int interleave_total(const int *want, int nr)
{
	int total = 0;

	for (int i = 0; i < nr; i++)
		total += want[i] > 0 ? want[i] : 0;
	return total;
}

int interleave_plan(const int *want, int nr, int *out)
{
	int total = interleave_total(want, nr), n = 0;

	for (int round = 0; n < total; round++)
		for (int i = 0; i < nr; i++)
			if (want[i] > round)
				out[n++] = i;
	return n;
}
