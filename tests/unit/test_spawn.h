#ifndef PERFBOT_TEST_SPAWN_H
#define PERFBOT_TEST_SPAWN_H
/*
 * Spawners for the seams that start threads (unite_opts, compare_load_opts
 * take a pthread_create-like function): spawn_ok starts the thread,
 * spawn_fails refuses as pthread_create does without resources; both count
 * their calls in *spawn_calls().
 */
#include <errno.h>
#include <pthread.h>

static inline int *spawn_calls(void)
{
	static int calls;

	return &calls;
}

static inline int spawn_ok(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	(*spawn_calls())++;
	return pthread_create(thread, NULL, fn, arg);
}

static inline int spawn_fails(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	(void)thread;
	(void)fn;
	(void)arg;
	(*spawn_calls())++;
	return EAGAIN;
}

#endif
