#ifndef PERFBOT_RUN_WORKDIR_H
#define PERFBOT_RUN_WORKDIR_H
/*
 * perfbot's private work dir, where `fs:` and `disk:` are made (loop
 * images, mount points) and the setup journals of src/run/setup.h live.
 * perfbot often runs as root and replays a journal left by a perfbot
 * killed with -9: unmounting, detaching, removing files, writing sysfs.
 * A journal someone else could write would make root remove or overwrite
 * any file.  So:
 *
 *   - the work dir is private: a real directory (not a symbolic link),
 *     owned by the effective uid, writable by nobody else, made 0700;
 *     every ancestor is owned by root or by us and, when others may
 *     write it, sticky (/tmp) -- checked each time it is used;
 *   - a journal is replayed only when it is a regular file with one link,
 *     owned by us, opened without following a link;
 *   - a journal may only name what perfbot itself makes
 *     (run_journal_check): its setup dir, the images and mount points in
 *     it, loop devices, /dev/shm images of its own name, and cpufreq
 *     scaling_governor files under the cpu sysfs tree.
 *
 * Anything else is refused with an error naming the file and why.
 */
#include "util/strbuf.h"

/* The cpufreq tree whose scaling_governor files setup changes. */
#define RUN_SETUP_CPU_SYSFS "/sys/devices/system/cpu"
/* The modules' tree, where setup tells a loaded brd from a built-in one. */
#define RUN_SETUP_MODULE_SYSFS "/sys/module"
/* Where brd's fallback (setup.h) puts its loop images. */
#define RUN_SETUP_SHM_DIR "/dev/shm"

/*
 * The work dir, appended to sb: $PERFBOT_WORK_DIR when set (tests; the
 * kernel initramfs sets /tmp/perfbot inside its guest), else /run/perfbot
 * for root, else $XDG_RUNTIME_DIR/perfbot (an absolute one), else
 * /tmp/perfbot-<uid>.
 */
void run_work_dir_default(struct strbuf *sb);

/*
 * Whether path is private (see the top): 0 yes, 1 it does not exist, -1
 * not (printed: "work dir 'P': why; refusing to use it").
 */
int run_work_dir_check(const char *path);

/* Make path (missing parents 0755, path itself 0700) and check it; the
 * canonical path is appended to real.  0, or -1 after error(). */
int run_work_dir_make(const char *path, struct strbuf *real);

/*
 * Open the journal at path for reading, refusing (error(), -1) one that
 * is a symbolic link, not a regular file, hard-linked elsewhere or owned
 * by another user.  The fd otherwise.
 */
int run_work_dir_open_journal(const char *path);

/*
 * Whether every line of a journal's text names only what perfbot makes:
 * state_path is the journal's own path ("<work dir>/setup-P-N.state"),
 * cpu_sysfs the cpufreq tree (NULL: /sys/devices/system/cpu).  0, or -1
 * with why set to "line N: what: why".  A torn last line is not checked
 * (it is never replayed).
 */
int run_journal_check(const char *text, const char *state_path, const char *cpu_sysfs,
		      struct strbuf *why);

#endif
