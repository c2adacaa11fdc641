#ifndef PERFBOT_STOP_H
#define PERFBOT_STOP_H
/*
 * stop.h: SIGINT and SIGTERM as a request to stop, for the commands that
 * run for long (run, bisect, watch, detect --bisect, kernel, worker).
 *
 *   o.stop = catch_stop_signals();
 *   ret = long_work(&o);             // polls *o.stop, kills its children
 *   if (*o.stop)
 *           return 130;
 *
 * The handler only counts: each signal adds one, up to 2, so that a
 * command can tell "stop when the job at hand is done" (1) from "abort
 * it" (2), as the worker does.  It is installed without SA_RESTART, so a
 * blocking wait (a sleep, a read from a child) ends at once with EINTR
 * and the caller looks at the flag.
 *
 * The flag is the one piece of global state behind this API (a signal
 * handler can do nothing else safely); catch_stop_signals() resets it to
 * 0 and always returns the same pointer.
 */
#include <signal.h>

volatile sig_atomic_t *catch_stop_signals(void);

#endif
