/*
 * The registry of monitors: MONITOR(ident) per line, ident being the C
 * name of `monitor_<ident>` defined in src/monitor/<file>.c.  Included by
 * sampler.c with different definitions of MONITOR to make the extern
 * declarations and the table.  A monitor that cannot work here stays
 * listed: its available() gives the reason at run time.
 *
 * Order is the order of the raw and JSON files' processing.
 */
MONITOR(proc_vmstat)     /* proc-vmstat.c   /proc/vmstat */
MONITOR(meminfo)         /* meminfo.c       /proc/meminfo */
MONITOR(vmstat)          /* vmstat.c        vmstat's columns from /proc */
MONITOR(numa_vmstat)     /* numa.c          node*\/vmstat */
MONITOR(numa_numastat)   /* numa.c          node*\/numastat */
MONITOR(numa_meminfo)    /* numa.c          node*\/meminfo */
MONITOR(softirqs)        /* softirqs.c      /proc/softirqs */
MONITOR(interrupts)      /* interrupts.c    /proc/interrupts */
MONITOR(proc_stat)       /* proc-stat.c     /proc/stat */
MONITOR(diskstats)       /* diskstats.c     /proc/diskstats */
MONITOR(iostat)          /* iostat.c        iostat -x from /proc/diskstats, /proc/stat */
MONITOR(slabinfo)        /* slabinfo.c      /proc/slabinfo */
MONITOR(cpuidle)         /* cpuidle.c       cpu*\/cpuidle/state* */
MONITOR(cpufreq)         /* cpufreq.c       cpu*\/cpufreq/stats */
MONITOR(kmsg)            /* kmsg.c          /dev/kmsg, the kernel log during the run */
MONITOR(time)            /* time.c          GNU time -v of the benchmark */
