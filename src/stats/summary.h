#ifndef PERFBOT_SUMMARY_H
#define PERFBOT_SUMMARY_H
/*
 * The small descriptive statistics every stage uses.  All take n >= 1
 * samples unless noted; none allocate except sorted_copy.
 */
#include <stddef.h>

double mean(const double *v, int n);
/* Population standard deviation (divide by n), as lkp's stddev.json. */
double stddev_pop(const double *v, int n);
/* Sample standard deviation (divide by n - 1); 0 when n < 2. */
double stddev_sample(const double *v, int n);
double vmin(const double *v, int n);
double vmax(const double *v, int n);
/* Median of v (need not be sorted; v is not modified). */
double median(const double *v, int n);
/* A sorted copy of v; caller frees. */
double *sorted_copy(const double *v, int n);
int cmp_double(const void *a, const void *b);

#endif
