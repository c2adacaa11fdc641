/*
 * tests-ipc.c: will-it-scale's tests of system calls, scheduling and
 * inter-task communication (the original's names; the operations are
 * this program's own, see the table's docs).
 */
#include "wis.h"

#include <errno.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void getppid_op(struct task *t)
{
	if (getppid() >= 0)
		(*t->count)++;
}

static void sched_yield_op(struct task *t)
{
	if (!sched_yield())
		(*t->count)++;
}

static int pipe_setup(struct task *t)
{
	return pipe(t->fd);
}

static int unix_setup(struct task *t)
{
	return socketpair(AF_UNIX, SOCK_STREAM, 0, t->fd);
}

/* pipe1, unix1: a byte into one end, back out of the other */
static void ping_op(struct task *t)
{
	char c = 0;

	if (write(t->fd[1], &c, 1) == 1 && read(t->fd[0], &c, 1) == 1)
		(*t->count)++;
}

static int eventfd_setup(struct task *t)
{
	t->fd[0] = eventfd(0, 0);
	return t->fd[0] < 0 ? -1 : 0;
}

static void eventfd_op(struct task *t)
{
	uint64_t v = 1;

	if (write(t->fd[0], &v, sizeof(v)) == sizeof(v) && read(t->fd[0], &v, sizeof(v)) == sizeof(v))
		(*t->count)++;
}

/* The partner of context_switch1: echo bytes from in to out until EOF. */
static void echo_loop(int in, int out)
{
	char c;

	while (read(in, &c, 1) == 1)
		if (write(out, &c, 1) != 1)
			break;
}

static void *echo_thread(void *arg)
{
	struct task *t = arg;

	echo_loop(t->fd[2], t->fd[1]);
	return NULL;
}

/* fd[0]/fd[1]: partner -> task; fd[2]/fd[3]: task -> partner. */
static int context_switch_setup(struct task *t)
{
	if (pipe(t->fd) || pipe(t->fd + 2))
		return -1;
	if (t->thread) {
		if (pthread_create(&t->helper_thread, NULL, echo_thread, t)) {
			errno = EAGAIN;
			return -1;
		}
		t->has_helper_thread = true;
		return 0;
	}
	t->helper = fork();
	if (t->helper < 0)
		return -1;
	if (t->helper == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* only the task may hold the write end, or the partner never sees EOF */
		close(t->fd[3]);
		echo_loop(t->fd[2], t->fd[1]);
		_exit(0);
	}
	return 0;
}

static void context_switch_op(struct task *t)
{
	char c = 0;

	if (write(t->fd[3], &c, 1) == 1 && read(t->fd[0], &c, 1) == 1)
		(*t->count)++;
}

static void context_switch_cleanup(struct task *t)
{
	/* EOF on the partner's input ends it */
	close(t->fd[3]);
	t->fd[3] = -1;
	if (t->has_helper_thread)
		pthread_join(t->helper_thread, NULL);
	if (t->helper > 0)
		waitpid(t->helper, NULL, 0);
	wis_cleanup(t);
}

static long futex(int *uaddr, int op, int val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

/* futex1, futex3: wake nobody; futex2, futex4: wait on a value that is not there */
static void futex_wake_op(struct task *t, int *word, int op)
{
	if (futex(word, op, 1) >= 0)
		(*t->count)++;
}

static void futex_wait_op(struct task *t, int *word, int op)
{
	if (futex(word, op, *word + 1) < 0 && errno == EAGAIN)
		(*t->count)++;
}

static void futex1_op(struct task *t)
{
	futex_wake_op(t, &t->futex, FUTEX_WAKE_PRIVATE);
}

static void futex2_op(struct task *t)
{
	futex_wait_op(t, &t->futex, FUTEX_WAIT_PRIVATE);
}

static void futex3_op(struct task *t)
{
	futex_wake_op(t, &t->g->futex, FUTEX_WAKE);
}

static void futex4_op(struct task *t)
{
	futex_wait_op(t, &t->g->futex, FUTEX_WAIT);
}

static int poll_setup(struct task *t, short events, int end)
{
	if (pipe(t->fd))
		return -1;
	for (int i = 0; i < WIS_NR_POLL; i++)
		t->pfd[i] = (struct pollfd){ .fd = t->fd[end], .events = events };
	return 0;
}

static int poll1_setup(struct task *t)
{
	return poll_setup(t, POLLIN, 0);
}

static int poll2_setup(struct task *t)
{
	return poll_setup(t, POLLOUT, 1);
}

static void poll_op(struct task *t)
{
	if (poll(t->pfd, WIS_NR_POLL, 0) >= 0)
		(*t->count)++;
}

static void posix_semaphore_op(struct task *t)
{
	if (!sem_wait(&t->g->sem) && !sem_post(&t->g->sem))
		(*t->count)++;
}

static int mutex_setup(struct task *t, int type)
{
	pthread_mutexattr_t a;
	int err;

	if ((err = pthread_mutexattr_init(&a)) ||
	    (err = pthread_mutexattr_settype(&a, type)) ||
	    (err = pthread_mutex_init(&t->mutex, &a))) {
		errno = err;
		return -1;
	}
	pthread_mutexattr_destroy(&a);
	t->has_mutex = true;
	return 0;
}

static int mutex_normal_setup(struct task *t)
{
	return mutex_setup(t, PTHREAD_MUTEX_NORMAL);
}

static int mutex_recursive_setup(struct task *t)
{
	return mutex_setup(t, PTHREAD_MUTEX_RECURSIVE);
}

static int mutex_errorcheck_setup(struct task *t)
{
	return mutex_setup(t, PTHREAD_MUTEX_ERRORCHECK);
}

static void mutex_op(struct task *t)
{
	if (!pthread_mutex_lock(&t->mutex) && !pthread_mutex_unlock(&t->mutex))
		(*t->count)++;
}

static void mutex_shared_op(struct task *t)
{
	if (!pthread_mutex_lock(&t->g->mutex) && !pthread_mutex_unlock(&t->g->mutex))
		(*t->count)++;
}

static void mutex_trylock_op(struct task *t)
{
	if (!pthread_mutex_trylock(&t->mutex) && !pthread_mutex_unlock(&t->mutex))
		(*t->count)++;
}

static void mutex_twice_op(struct task *t)
{
	if (!pthread_mutex_lock(&t->mutex) && !pthread_mutex_lock(&t->mutex) &&
	    !pthread_mutex_unlock(&t->mutex) && !pthread_mutex_unlock(&t->mutex))
		(*t->count)++;
}

static void on_usr1(int sig)
{
	(void)sig;
}

static int signal_setup(struct task *t)
{
	struct sigaction sa;

	(void)t;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	return sigaction(SIGUSR1, &sa, NULL);
}

static void signal_op(struct task *t)
{
	if (!raise(SIGUSR1))
		(*t->count)++;
}

const struct wtest wis_ipc_tests[] = {
	{ "context_switch1", "ping-pong a byte with a partner through two pipes",
	  context_switch_setup, context_switch_op, context_switch_cleanup },
	{ "eventfd1", "write and read back an eventfd counter", eventfd_setup, eventfd_op, NULL },
	{ "futex1", "FUTEX_WAKE on an own private futex nobody waits on", NULL, futex1_op, NULL },
	{ "futex2", "FUTEX_WAIT on an own private futex whose value differs", NULL, futex2_op, NULL },
	{ "futex3", "FUTEX_WAKE on one shared futex nobody waits on", NULL, futex3_op, NULL },
	{ "futex4", "FUTEX_WAIT on one shared futex whose value differs", NULL, futex4_op, NULL },
	{ "getppid1", "call getppid()", NULL, getppid_op, NULL },
	{ "pipe1", "write and read back a byte through an own pipe", pipe_setup, ping_op, NULL },
	{ "poll1", "poll 128 entries of an empty pipe (none ready)", poll1_setup, poll_op, NULL },
	{ "poll2", "poll 128 entries of a pipe's write end (all ready)", poll2_setup, poll_op, NULL },
	{ "posix_semaphore1", "sem_wait and sem_post on one process-shared semaphore",
	  NULL, posix_semaphore_op, NULL },
	{ "pthread_mutex1", "lock and unlock an own mutex", mutex_normal_setup, mutex_op, NULL },
	{ "pthread_mutex2", "lock and unlock one process-shared mutex", NULL, mutex_shared_op, NULL },
	{ "pthread_mutex3", "trylock and unlock an own mutex", mutex_normal_setup,
	  mutex_trylock_op, NULL },
	{ "pthread_mutex4", "lock an own recursive mutex twice, unlock it twice",
	  mutex_recursive_setup, mutex_twice_op, NULL },
	{ "pthread_mutex5", "lock and unlock an own error-checking mutex",
	  mutex_errorcheck_setup, mutex_op, NULL },
	{ "sched_yield", "call sched_yield()", NULL, sched_yield_op, NULL },
	{ "signal1", "raise SIGUSR1, caught by an empty handler", signal_setup, signal_op, NULL },
	{ "unix1", "write and read back a byte through an own UNIX socket pair",
	  unix_setup, ping_op, NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};
