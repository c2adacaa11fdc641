/* stop.c: SIGINT and SIGTERM counted into one flag (see stop.h). */
#include "util/stop.h"

#include <string.h>

static volatile sig_atomic_t stop_flag;

static void on_stop_signal(int sig)
{
	(void)sig;
	if (stop_flag < 2)
		stop_flag++;
}

volatile sig_atomic_t *catch_stop_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;   /* no SA_RESTART: a wait ends at once */
	sigemptyset(&sa.sa_mask);
	stop_flag = 0;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	return &stop_flag;
}
