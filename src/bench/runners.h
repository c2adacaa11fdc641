/*
 * The registry of benchmark runners: RUNNER(ident) per line, ident being
 * the C name of `runner_<ident>` defined in src/bench/<name>.c.  Included
 * by runner.c with different definitions of RUNNER.  Built-in benchmarks
 * first, then Debian's.
 */
RUNNER(vm_scalability)
RUNNER(will_it_scale)
RUNNER(hackbench)
RUNNER(stress_ng)
RUNNER(perf_bench_sched_messaging)
RUNNER(perf_bench_sched_pipe)
RUNNER(perf_bench_mem)
RUNNER(perf_bench_futex)
RUNNER(perf_bench_syscall)
RUNNER(perf_bench_numa_mem)
RUNNER(fio)
RUNNER(iperf)
RUNNER(dbench)
RUNNER(tbench)
RUNNER(sysbench)
RUNNER(redis)
RUNNER(openssl_speed)
