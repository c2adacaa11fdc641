#ifndef PERFBOT_COMPILER_H
#define PERFBOT_COMPILER_H
/*
 * HOT_PATH marks the few functions the monitor sampler runs every tick.
 * GCC and Clang put hot functions in .text.hot, which the linker gathers
 * in one place: a tick then touches two or three pages of perfbot's code
 * instead of one per source file.  On a machine that has been idle for a
 * second every page touched costs a TLB miss, and on a VM much more (see
 * src/monitor/sampler.c).  Keep the list short: a hot section full of
 * everything is no better than none.
 */
#if defined(__GNUC__)
#define HOT_PATH __attribute__((hot))
#else
#define HOT_PATH
#endif

#endif
