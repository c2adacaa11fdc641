/*
 * The registry of benchmark runners: RUNNER(ident, "ident") per line, ident being
 * the C name of `runner_<ident>` defined in src/runner/<name>.c.  Included
 * by runner/runner.c with different definitions of RUNNER, and by
 * bench_names.c for the names alone: the list lives in the job layer,
 * which asks which keys are benchmarks, because runner/ sits above it
 * (scripts/layers.sh).  Built-in benchmarks first, then Debian's.
 */
RUNNER(vm_scalability, "vm-scalability")
RUNNER(will_it_scale, "will-it-scale")
RUNNER(aim7, "aim7")
RUNNER(ebizzy, "ebizzy")
RUNNER(hackbench, "hackbench")
RUNNER(stress_ng, "stress-ng")
RUNNER(perf_bench_sched_messaging, "perf-bench-sched-messaging")
RUNNER(perf_bench_sched_pipe, "perf-bench-sched-pipe")
RUNNER(perf_bench_mem, "perf-bench-mem")
RUNNER(perf_bench_futex, "perf-bench-futex")
RUNNER(perf_bench_syscall, "perf-bench-syscall")
RUNNER(perf_bench_numa_mem, "perf-bench-numa-mem")
RUNNER(fio, "fio")
RUNNER(iperf, "iperf")
RUNNER(dbench, "dbench")
RUNNER(tbench, "tbench")
RUNNER(sysbench, "sysbench")
RUNNER(redis, "redis")
RUNNER(openssl_speed, "openssl-speed")
