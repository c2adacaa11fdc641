#include <stdio.h>
int main(void) { volatile unsigned long s = 0; for (unsigned long i = 0; i < 1000; i++) s += i; printf("sum: %lu\n", s); return 0; }
