/*
 * lkp_tables.c: what lkp-tests knows about metric names, as const tables.
 *
 * Each table below is the content of one of lkp's etc/ files (named above
 * it), kept in lkp's own Ruby-regexp text so that it can be compared line
 * by line with the file it came from; lkp_regex.c interprets them, in the
 * three ways of enum lkp_anchor.  The big tables are sorted by the byte
 * their patterns start with and looked up by the name's first byte, so a
 * name against every table costs about a microsecond.
 */
#include "stats/lkp_tables.h"
#include "stats/lkp_regex.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_SIZE(a) LKP_ARRAY_SIZE(a)

/* ------------------------------------------------------------------ */
/* The tables                                                          */
/* ------------------------------------------------------------------ */

/* etc/failure: pass/fail style stats, each matched as /^pattern/ */
static const char *const failure_re[] = {
	".+killed_by.*",
	".+\\.(error|warn|fail)[^_]*$",
	".+\\..+\\.make_fail",
	"dmesg.*",
	"kmemleak\\..+unreferenced_object\\..+",
	"kmsg.*",
	"last_state.*",
	"locktoture\\..+lock_hotplug",
	"rcutoture\\..+rcu_hotplug",
	"stderr.*",
	"xfstests\\..+fail$",
};

/* etc/pass */
static const char *const pass_re[] = {
	".+\\.pass$",
};

/*
 * etc/stat-denylist: hidden unless -m (each line is a free regexp).  The
 * lines anchored to dmesg.* and kmsg.* are kept apart so that a name is
 * tried only against the lines of its own family.
 */
static const char *const stat_denylist_re[] = {
	"^GLib-WARNING\\*\\*:#:#:#:gmem.c:#:custom_memory_allocation_vtable_not_supported",
	"^aim7\\.cpu",
	"^aim7\\.jobs-per-min-per-task",
	"^aim7\\.jti",
	"^aim7\\.real",
	"^boot-meminfo\\.",
	"^boot-slabinfo\\.",
	"^boot-time\\.",
	"^buddyinfo\\.",
	"^cpuidle\\.",
	"^diskstats\\.",
	"^ebizzy\\.throughput\\.per_thread\\.stddev_percent",
	"^interrupts\\.",
	"^iostat\\.",
	"^kernel\\-selftests\\.dma\\.dma_map_benchmark\\.average_map_latency",
	"^kernel\\-selftests\\.mqueue\\.nsec_per_msg",
	"^kvm-unit-tests-qemu\\.apic",
	"^kvm-unit-tests.*\\.pmu_pebs\\.fail",
	"^last_state\\..+\\.exit_code",
	"^last_state\\.exit_fail",
	"^last_state\\.initrd_broken",
	"^last_state\\.kvm_fail",
	"^last_state\\.microcode_is_not_matched",
	"^last_state\\.OOM",
	"^last_state\\.post_run",
	"^last_state\\.soft_timeout",
	"^last_state\\.wget_initrd",
	"^last_state\\.wget_initrd_fail",
	"^last_state\\.wget_kernel",
	"^last_state\\.wget_kernel_fail",
	"^leaking-addresses\\.dmesg.R",
	"^leaking-addresses\\.leaking_number",
	"^leaking-addresses\\.proc.*:0000000",
	"^leaking-addresses\\.proc.blacklist",
	"^leaking-addresses\\.proc.netlink",
	"^leaking-addresses\\.proc.vmallocinfo",
	"^leaking-addresses\\.result.fail",
	"^leaking-addresses\\.total_number",
	"^libhugetlbfs-test\\..+\\.killed_by_signal",
	"^lkvs\\..*\\.na",
	"^lock_stat\\.",
	"^ltp\\..*\\.broken",
	"^ltp\\.connect02\\.fail",
	"^ltp\\.cve-2018-9568\\.fail",
	"^max_iostat\\.",
	"^meminfo\\.",
	"^mpstat\\.",
	"^numa-meminfo\\.",
	"^numa-numastat\\.",
	"^numa-vmstat\\.",
	"^pagetypeinfo\\.",
	"^perf-event-tests\\..*\\.unimplemented",
	"^perf-profile.",
	"^perf-stat\\.",
	"^pmeter\\.fail",
	"^proc-vmstat\\.",
	"^rcutorture\\.cpuhotplug-.*\\.rcu_hotplug",
	"^sched_debug\\.",
	"^slabinfo\\.",
	"^softirqs\\.",
	"^tcrypt\\.",
	"^time\\.",
	"^turbostat\\.",
	"^upgrade-trinity\\.fail",
	"^uptime\\.",
	"^vmstat\\.",
	"^xfstests\\.btrfs\\.303\\.fail",
	"^zoneinfo\\.",
};

/* the stat-denylist lines without an anchor: tried against every name */
static const char *const stat_denylist_free_re[] = {
	"Modules_linked_in",
	"Spectre_v2_mitigation",
	"{#:#}",
	"},at",
};

static const char *const stat_denylist_dmesg_re[] = {
	"^dmesg\\.(E|R)IP:acpi_safe_halt",
	"^dmesg\\.(E|R)IP:cpumask_next",
	"^dmesg\\.(E|R)IP:debug_check_no_locks_freed",
	"^dmesg\\.(E|R)IP:enable_slot",
	"^dmesg\\.(E|R)IP:fb_deferred_io_init",
	"^dmesg\\.(E|R)IP:ida_free",
	"^dmesg\\.(E|R)IP:kallsyms_init",
	"^dmesg\\.(E|R)IP:kprobe_trace_self_tests_init",
	"^dmesg\\.(E|R)IP:kthread_should_stop",
	"^dmesg\\.(E|R)IP:nand_scan_tail",
	"^dmesg\\.(E|R)IP:nand_scan_with_ids",
	"^dmesg\\.(E|R)IP:nand_set_ecc_soft_ops",
	"^dmesg\\.(E|R)IP:ops_alloc_init",
	"^dmesg\\.(E|R)IP:qlist_free_all",
	"^dmesg\\.(E|R)IP:rcu_torture_fwd_prog\\[rcutorture\\]",
	"^dmesg\\.(E|R)IP:rcu_torture_fwd_prog_cr\\[rcutorture\\]",
	"^dmesg\\.(E|R)IP:rcu_torture_stats_print\\[rcutorture\\]",
	"^dmesg\\.(E|R)IP:rcu_torture_writer\\[rcutorture\\]",
	"^dmesg\\.(E|R)IP:refcount_warn_saturate",
	"^dmesg\\.(E|R)IP:ref_tracker_dir_exit",
	"^dmesg\\.(E|R)IP:ref_tracker_free",
	"^dmesg\\.(E|R)IP:ring_buffer_alloc_read_page",
	"^dmesg\\.(E|R)IP:smp_call_function_many_cond",
	"^dmesg\\.(E|R)IP:stack_access_ok",
	"^dmesg\\.(E|R)IP:synchronize_rcu_trivial\\[rcutorture\\]",
	"^dmesg\\.(E|R)IP:__list_del_entry_valid\\.cold",
	"^dmesg\\.(E|R)IP:__x86_indirect_thunk_array",
	"^dmesg\\..*/lkp/",
	"^dmesg\\..*cpu_clock_throttled.*",
	"^dmesg\\..+_login:BUG:kernel_hang_in_test_stage",
	"^dmesg\\.backtrace",
	"^dmesg\\.Bad_pagetable:#.\\[##\\]",
	"^dmesg\\.bootstage",
	"^dmesg\\.bootstage:.*",
	"^dmesg\\.boot_failures",
	"^dmesg\\.boot_successes",
	"^dmesg\\.BUG:Bad_rss-counter_state_mm:#type:MM_FILEPAGES_val",
	"^dmesg\\.BUG:Dentry.*i=.*n=.*",
	"^dmesg\\.BUG:KASAN:slab-out-of-bounds_in_resiliency_test",
	"^dmesg\\.BUG:KASAN:slab-out-of-bounds_in_test_clobber_zone",
	"^dmesg\\.BUG:KASAN:slab\\-out\\-of\\-bounds_in_acpi_power_up_if_adr_present",
	"^dmesg\\.BUG:KCSAN:assert:race_in",
	"^dmesg\\.BUG:KCSAN:data\\-race_in#/",
	"^dmesg\\.BUG:KCSAN:data\\-race_in_ftrace_likely_update/ftrace_likely_update",
	"^dmesg\\.BUG:KCSAN:data\\-race_in_ktime_get/timekeeping_advance",
	"^dmesg\\.BUG:KCSAN:data\\-race_in_ktime_get_update_offsets_now/timekeeping_advance",
	"^dmesg\\.BUG:KCSAN:data\\-race_in_tick_nohz_next_event/tick_nohz_stop_tick",
	"^dmesg\\.BUG:KCSAN:data\\-race_in_tick_nohz_next_event/tick_sched_do_timer",
	"^dmesg\\.BUG:kernel_hang_in_test_stage",
	"^dmesg\\.BUG:kernel_in_stage",
	"^dmesg\\.BUG:KFENCE",
	"^dmesg\\.BUG:TASK_stack_guard_page_was_hit_at\\(____ptrval____\\)\\(stack_is\\(____ptrval____\\)\\.\\.\\(____ptrval____\\)\\)",
	"^dmesg\\.BUG:using__this_cpu_read\\(\\)in_preemptible\\[#\\]code",
	"^dmesg\\.BUG:workqueue_lockup-pool",
	"^dmesg\\.BUG_TestSlub_.*",
	"^dmesg\\.calltrace",
	"^dmesg\\.drm:intel_acpi_device_id_update.*",
	"^dmesg\\.EDAC_MC.*(CE|UE)_row",
	"^dmesg\\.Hardware_Error\\]:.*",
	"^dmesg\\.inconsistent[{]HARDIRQ\\-ON\\-W[}]\\-",
	"^dmesg\\.inconsistent[{]IN\\-HARDIRQ\\-W[}]\\-",
	"^dmesg\\.INFO:NMI_handler.*took_too_long_to_run:",
	"^dmesg\\.INFO:Slab0x\\(____ptrval____\\)objects=#used=#fp=0x\\((null|____ptrval____)\\)flags=",
	"^dmesg\\.INFO:Stall_ended_before_state_dump_start",
	"^dmesg\\.invoked_oom-killer:gfp_mask=0x",
	"^dmesg\\.IP-Config:Auto-configuration_of_network_failed",
	"^dmesg\\.kernel_BUG_at_drivers/misc/lkdtm/bugs.c",
	"^dmesg\\.kernel_BUG_at_kernel/entry/common\\.c",
	"^dmesg\\.kernel_BUG_at_net/core/skbuff\\.c",
	"^dmesg\\.Kernel_panic\\-not_syncing:Failed_to_register_CPU_subsystem",
	"^dmesg\\.Kernel_panic\\-not_syncing:security_add_hooks_Too_many_LSMs_registered",
	"^dmesg\\.Kernel_panic\\-not_syncing:System_is_deadlocked_on_memory",
	"^dmesg\\.Kernel_panic\\-not_syncing:XSAVE_has_to_be_disabled_as_it_is_not_supported_by_this_module",
	"^dmesg\\.kobject\\(.+#\\):tried_to_init_an_initialized_object",
	"^dmesg\\.kobject\\(\\(_+ptrval_+\\)\\):tried_to_init_an_initialized_object",
	"^dmesg\\.Mem-Info",
	"^dmesg\\.Memory_failure:#:recovery_action_for_.*",
	"^dmesg\\.net/mac80211/util\\.c:#RCU\\-list_traversed_in_non\\-reader_section",
	"^dmesg\\.net/netfilter/ipset/ip_set_core\\.c:#RCU\\-list_traversed_in_non\\-reader_section",
	"^dmesg\\.of-unittest",
	"^dmesg\\.Out_of_memory_and_no_killable_processes",
	"^dmesg\\.page_allocation_failure",
	"^dmesg\\.refcount_t:underflow;use-after-free",
	"^dmesg\\.sysctl_could_not_get_directory",
	"^dmesg\\.sysctl_table_check_failed",
	"^dmesg\\.timestamp:.*",
	"^dmesg\\.UBSAN:shift\\-out\\-of\\-bounds_in_lib/test_scanf\\.c",
	"^dmesg\\.UBSAN:signed-integer-overflow.*",
	"^dmesg\\.unittest\\.of_unittest_overlay_high_level\\(\\)_overlay_base_root_not_initialized\\.fail",
	"^dmesg\\.unittest\\.of_unittest_pci_node\\(\\)_No_test_PCI_device_been_found\\._Please_run_QEMU_with_'\\-device_pci\\-testdev'\\.fail",
	"^dmesg\\.unittest\\.of_unittest_pci_node\\(\\)_No_test_PCI_device_been_found\\._Please_run_QEMU_with_\\-device_pci\\-testdev\\.fail",
	"^dmesg\\.WARNING:at_arch/x86/kernel/cpu/aperfmperf\\.c:#freq_invariance_enable",
	"^dmesg\\.WARNING:at_arch/x86/kernel/cpu/cpuid-deps\\.c:#do_clear_cpu_cap",
	"^dmesg\\.WARNING:at_arch/x86/kernel/module\\.c:#apply_relocate_add",
	"^dmesg\\.WARNING:at_drivers/gpu/drm/drm_fb_helper\\.c:#drm_fb_helper_damage_work\\[drm_kms_helper\\]",
	"^dmesg\\.WARNING:at_drivers/gpu/drm/drm_mode_object.c:#drm_object_attach_property",
	"^dmesg\\.WARNING:at_drivers/gpu/drm/i915/intel_runtime_pm\\.c:#intel_runtime_pm_driver_release\\[i915\\]",
	"^dmesg\\.WARNING:at_drivers/mtd/nand/raw/nand_base.c:#nand_scan_tail",
	"^dmesg\\.WARNING:at_drivers/mtd/nand/raw/nand_base\\.c:#nand_scan_with_ids",
	"^dmesg\\.WARNING:at_drivers/mtd/nand/raw/nand_base\\.c:#nand_set_ecc_soft_ops",
	"^dmesg\\.WARNING:at_drivers/thermal/thermal_sysfs\\.c:#cooling_device_stats_setup",
	"^dmesg\\.WARNING:at_fs/notify/mark\\.c:#__fsnotify_recalc_mask",
	"^dmesg\\.WARNING:at_include/linux/cpumask\\.h",
	"^dmesg\\.WARNING:at_kernel/irq/manage.c:#request_threaded_irq",
	"^dmesg\\.WARNING:at_kernel/kallsyms\\.c:#kallsyms_init",
	"^dmesg\\.WARNING:at_kernel/kcsan/kcsan_test.c:#test_init",
	"^dmesg\\.WARNING:at_kernel/rcu/rcutorture.c:#rcutorture_oom_notify",
	"^dmesg\\.WARNING:at_kernel/rcu/rcutorture.c:#rcu_torture_writer",
	"^dmesg\\.WARNING:at_kernel/rcu/rcutorture.c:#rcu_torture_writer\\[rcutorture\\]",
	"^dmesg\\.WARNING:at_kernel/rcu/rcutorture\\.c:#rcu_torture_fwd_prog\\[rcutorture\\]",
	"^dmesg\\.WARNING:at_kernel/rcu/rcutorture\\.c:#rcu_torture_fwd_prog_cr",
	"^dmesg\\.WARNING:at_kernel/rcu/rcutorture\\.c:#rcu_torture_stats_print\\.cold\\[rcutorture\\]",
	"^dmesg\\.WARNING:at_kernel/rcu/rcutorture\\.c:#rcu_torture_stats_print\\[rcutorture\\]",
	"^dmesg\\.WARNING:at_kernel/rcu/rcutorture\\.c:#synchronize_rcu_trivial\\[rcutorture\\]",
	"^dmesg\\.WARNING:at_kernel/rcu/tree\\.c:#synchronize_rcu",
	"^dmesg\\.WARNING:at_kernel/rcu/tree_exp\\.h:#synchronize_rcu_expedited",
	"^dmesg\\.WARNING:at_kernel/sched/topology\\.c:#sd_init",
	"^dmesg\\.WARNING:at_kernel/time/clocksource\\-wdtest\\.c:#wdtest_func",
	"^dmesg\\.WARNING:at_kernel/trace/trace_kprobe\\.c:#kprobe_trace_self_tests_init",
	"^dmesg\\.WARNING:at_lib/dynamic_debug\\.c:#ddebug_add_module",
	"^dmesg\\.WARNING:at_lib/idr\\.c:#ida_free",
	"^dmesg\\.WARNING:at_lib/refcount\\.c:#refcount_warn_saturate",
	"^dmesg\\.WARNING:at_lib/refcount\\.c:#stack_depot_dec_count",
	"^dmesg\\.WARNING:at_lib/ref_tracker\\.c:#ref_tracker_dir_exit",
	"^dmesg\\.WARNING:at_lib/ref_tracker\\.c:#ref_tracker_free",
	"^dmesg\\.WARNING:at_mm/debug_vm_pgtable\\.c:#hugetlb_basic_tests",
	"^dmesg\\.WARNING:at_mm/debug_vm_pgtable\\.c:#pmd_basic_tests",
	"^dmesg\\.WARNING:at_net/sysctl_net\\.c:#register_net_sysctl",
	"^dmesg\\.WARNING:at_samples/ftrace/ftrace\\-ops\\.c:#ops_alloc_init",
	"^dmesg\\.WARNING:CPU:#PID:#at_rcu_torture_stats_print\\[rcutorture\\]",
	"^dmesg\\.WARNING:CPU:#PID:#at_refcount_warn_saturate",
	"^dmesg\\.WARNING:event.*not_valid.*not_supported_by_kernel",
	"^dmesg\\.WARNING:missing_R10_value_at__fsnotify_parent",
	"^dmesg\\.WARNING:possible_circular_locking_dependency_detected_chmod_is_trying_to_acquire_lock:at:console_lock_spinning_enable_but_task_is_already_holding_lock:at:tty_insert_flip_string_and_push_buffer.*",
	"^dmesg\\.WARNING:Spectre_v2_mitigation_leaves_CPU_vulnerable_to_RETBleed_attacks,data_leaks_possible",
	"^dmesg\\.WARNING:Unprivileged_eBPF_is_enabled_with_eIBRS_on,data_leaks_possible_via_Spectre_v2_BHB_attacks",
};

static const char *const stat_denylist_kmsg_re[] = {
	"^kmsg\\.(C|T)[0-9]{1,5}\\]",
	"^kmsg\\.attempting_acpi",
	"^kmsg\\.blk_update_request:I/O_error,dev_fd#,sector#op#:\\(READ\\)flags#phys_seg#prio_class",
	"^kmsg\\.Bluetooth:hci#:",
	"^kmsg\\.bochs-drm#:#:#:\\[drm:drm_fbdev_client_hotplug\\[drm_kms_helper\\]\\].*ERROR.*fbdev:Failed_to_setup_generic_emulation",
	"^kmsg\\.bochs-drm#:#:#:\\[drm:drm_fbdev_client_hotplug\\].*ERROR.*fbdev:Failed_to_setup_generic_emulation",
	"^kmsg\\.bootstage:.*",
	"^kmsg\\.CR0:actual=#,shadow=#,gh_mask=",
	"^kmsg\\.CR0=#CR3=#CR4=",
	"^kmsg\\.CR4:actual=#,shadow=#,gh_mask=",
	"^kmsg\\.CS:sel=#,attr=#,limit=#,base=",
	"^kmsg\\.CS=#SS=#DS=#ES=#FS=#GS=#TR=",
	"^kmsg\\.DebugCtl=#DebugExceptions=",
	"^kmsg\\.Disabling_IRQ",
	"^kmsg\\.driver_probe_device",
	"^kmsg\\.DS:sel=#,attr=#,limit=#,base=",
	"^kmsg\\.EFER=#PAT=",
	"^kmsg\\.EntryControls=#ExitControls=",
	"^kmsg\\.EPT_pointer=",
	"^kmsg\\.ES:sel=#,attr=#,limit=#,base=",
	"^kmsg\\.ExceptionBitmap=#PFECmask=#PFECmatch=",
	"^kmsg\\.File:/fs/vda-diotest_PID:#Comm:dio-invalidate",
	"^kmsg\\.Firmware_Bug\\]:the_BIOS_has_corrupted_hw-PMU_resources",
	"^kmsg\\.FS:sel=#,attr=#,limit=#,base=",
	"^kmsg\\.FSBase=#GSBase=#TRBase=",
	"^kmsg\\.fuse:Bad_value_for'subtype'",
	"^kmsg\\.GDTBase=#IDTBase=",
	"^kmsg\\.GDTR:limit=#,base=",
	"^kmsg\\.gpio_it87:no_device",
	"^kmsg\\.GS:sel=#,attr=#,limit=#,base=",
	"^kmsg\\.handlers",
	"^kmsg\\.Hardware_name:Dell_Inc\\.OptiPlex#/#DNKMN,BIOS_A05",
	"^kmsg\\.Hardware_name:Dell_Inc\\.OptiPlex#/#Y7WYT,BIOS",
	"^kmsg\\.Hardware_name:HP_HP_Z238_Microtower_Workstation,BIOS_N51_Ver",
	"^kmsg\\.Host_State\\*\\*\\*",
	"^kmsg\\.IDTR:limit=#,base=",
	"^kmsg\\.ioatdma#:#:#:",
	"^kmsg\\.irq#:nobody_cared",
	"^kmsg\\.L1TF:Kernel_not_compiled_for_PAE.No_mitigation_for_L1TF",
	"^kmsg\\.LDTR:sel=#,attr=#,limit=#,base=",
	"^kmsg\\.legacy_IDE_will_be_removed_in#,please_switch_to_libata",
	"^kmsg\\.mac80211_hwsim_hwsim",
	"^kmsg\\.Memory_failure:#:non_anonymous_thp",
	"^kmsg\\.Memory_failure:#:Sending_SIGBUS_to",
	"^kmsg\\.mem_dump_obj\\(#\\):#\\-page_vmalloc_region_starting_at#allocated_at_copy_process",
	"^kmsg\\.mem_dump_obj\\(#\\):slab",
	"^kmsg\\.msi_wmi:This_machine_doesn't_have_neither_MSI-hotkeys_nor_backlight_through_WMI",
	"^kmsg\\.nd_region_region#:nmem#:is_locked,failing_probe",
	"^kmsg\\.nouveau#:#:#:disp:ERROR#\\[PUSHBUFFER_ERR\\]#\\[\\]chid#mthd#data",
	"^kmsg\\.nvme#:Admin_Cmd\\(#\\),I/O_Error\\(sct#/sc#\\)MORE",
	"^kmsg\\.obsolete_checksetup",
	"^kmsg\\.pciehp#:b1:#:pcie004:Slot\\(.*\\):Power_fault",
	"^kmsg\\.PLE_Gap=#Window=",
	"^kmsg\\.power_meter_ACPI000D:#:hwmon_device_register\\(\\)is_deprecated.Please_convert_the_driver_to_use_hwmon_device_register_with_info\\(\\)",
	"^kmsg\\.print_req_error:I/O_error,dev_.*,sector#flags",
	"^kmsg\\.print_req_error:I/O_error,dev_loop#,sector#flags",
	"^kmsg\\.rcu:End-test_grace-period_state",
	"^kmsg\\.rcu_torture_fwd_prog_nr:#Duration#cver#gps",
	"^kmsg\\.RFLAGS=#DR7=",
	"^kmsg\\.RIP=#RSP=",
	"^kmsg\\.RSP=#RIP=",
	"^kmsg\\.SA_mtpav.c:#MTVAP_port#is_busy",
	"^kmsg\\.serial#:#:PM:dpm_run_callback\\(\\):pnp_bus_resume_returns",
	"^kmsg\\.SS:sel=#,attr=#,limit=#,base=",
	"^kmsg\\.Sysenter_RSP=#CS:RIP=",
	"^kmsg\\.telclk_interrupt=#non-mcpbl0010_hw",
	"^kmsg\\.test_bitmap:bitmap_print_to_pagebuf:input_is",
	"^kmsg\\.test_bitmap:parselist",
	"^kmsg\\.test_stackinit:failures",
	"^kmsg\\.timestamp:.*",
	"^kmsg\\.TPR_Threshold=",
	"^kmsg\\.TR:sel=#,attr=#,limit=#,base=",
	"^kmsg\\.TSC_Offset=",
	"^kmsg\\.usb_hcd_irq",
	"^kmsg\\.usb_usb#-port#:Cannot_enable.Maybe_the_USB_cable_is_bad\\?",
	"^kmsg\\.veth[0-9]*:Failed_to_cycle_device_veth",
	"^kmsg\\.Writes:Total:#Max/Min:#Fail",
};

/* etc/stat-allowlist: shown even when denylisted */
static const char *const stat_allowlist_re[] = {
	"^/dev/mapper/control: open failed: No such device",
	"^kmsg\\.sanitizer",
	"^stderr\\.BPF_MOV64_IMM[(]BPF_REG_0,#",
	"^stderr\\.disk_r(r|w)\\(\\):No_space_left_on_device",
	"^stderr\\.mkfs.xfs:pwrite_failed:Invalid_argument",
	"^stderr\\.modprobe:ERROR:could_not_insert'btrfs':Key_was_rejected_by_service",
	"^stderr\\.modprobe:ERROR:could_not_insert'tcrypt':Exec_format_error",
	"^stderr\\.mount_nfs_timeout",
	"^stderr\\.sync_disk_cp.*: cannot create /fs/shm/tmpb",
	"^stderr\\.umount:/tmp/vm-scalability-tmp:target_is_busy",
	"^stderr\\.xinit:giving_up",
	"^stress-ng\\..+\\.fail",
};

/* etc/report-allowlist: monitor families reported although denylisted */
static const char *const report_allowlist_re[] = {
	"^boot-meminfo.",
	"^boot-slabinfo.",
	"^boot-time.",
	"^cpuidle.",
	"^iostat.",
	"^lock_stat.",
	"^meminfo.",
	"^mpstat.",
	"^numa-meminfo.",
	"^numa-numastat.",
	"^numa-vmstat.",
	"^numa-vmstat.",
	"^perf-profile.",
	"^perf-stat.",
	"^proc-vmstat.",
	"^sched_debug.",
	"^time.",
	"^turbostat.",
	"^uptime.",
	"^vmstat.",
};

/* etc/perf-metrics-patterns */
static const char *const perf_metrics_re[] = {
	"^(.*\\.)?time..*",
	"^lock_stat..*..contentions",
};

/* etc/perf-metrics-prefixes, each matched as /^prefix/ */
static const char *const perf_metrics_prefix_re[] = {
	"boot-meminfo\\.DirectMap1G",
	"boot-meminfo\\.DirectMap2M",
	"boot-meminfo\\.DirectMap4k",
	"boot-meminfo\\.KernelStack",
	"boot-meminfo\\.MemFree",
	"boot-meminfo\\.MemTotal",
	"boot-meminfo\\.PageTables",
	"boot-meminfo\\.Slab",
	"boot-meminfo\\.VmallocUsed",
	"boot-memory\\.bootmem",
	"boot-memory\\.code",
	"boot-memory\\.init",
	"boot-slabinfo\\.",
	"boot-time\\.",
	"energy\\.",
	"interrupts\\.CAL:Function_call_interrupts",
	"iostat\\.",
	"perf-c2c\\.HITM\\.total",
	"perf-profile\\.children\\.cycles-pp\\.native_queued_spin_lock_slowpath",
	"perf-stat\\.",
	"pmeter\\.",
	"proc-vmstat\\.",
	"turbostat\\.%Busy",
	"turbostat\\.Bzy_MHz",
	"turbostat\\.C1%",
	"turbostat\\.C1E%",
	"turbostat\\.CorWatt",
	"turbostat\\.Pk%pc10",
	"turbostat\\.Pkg%pc2",
	"turbostat\\.Pkg%pc3",
	"turbostat\\.Pkg%pc6",
	"turbostat\\.Pkg%pc7",
	"turbostat\\.Pkg%pc8",
	"turbostat\\.Pkg%pc9",
	"turbostat\\.PkgTmp",
	"turbostat\\.PkgWatt",
	"turbostat\\.POLL%",
	"turbostat\\.RAMWatt",
	"turbostat\\.SYS%LPI",
	"vmstat\\.cpu\\.",
	"vmstat\\.io\\.",
	"vmstat\\.swap\\.",
	"vmstat\\.system\\.",
};

/* etc/index-latency-all.yaml (keys; every value is negative) */
static const char *const index_latency_re[] = {
	"apachebench\\.connection_time\\..+\\.max",
	"apachebench\\.max_latency\\..+\\%",
	"dbench\\.max_latency",
	"dd\\.kill_time",
	"dd\\.startup_time",
	"ebizzy\\.throughput.per_thread\\.stddev_percent",
	"ftq\\..+\\.noise",
	"fwq\\..+\\.noise",
	"iostat\\..*\\.(await|r_await|w_await|svctm|avgqu-sz)\\.max",
	"kselftests\\.dma\\.dma_map_benchmark\\.average_(map|unmap)_latency",
	"ku-latency\\.total_average_us",
	"lmbench3\\..+\\.latency.ns",
	"lmbench3\\..+\\.latency.us",
	"lmbench3\\..+\\.latency",
	"oltp\\.latency_95th_ms",
	"oltp\\.latency_max_ms",
	"oltp\\.latency_min_ms",
	"perf-bench-futex\\.avg_per_thread_latency_ms",
	"pgbench\\.latency_ms",
	"pmbench\\..+\\.latency\\..+\\.ns",
	"pmbench\\.latency\\.ns\\.average",
	"pts\\..+\\.9th_latency_percentile",
	"pts\\..+\\.max_latency_ms",
	"qperf\\..+\\.latency",
	"schbench\\.request_latency_max_us",
	"schbench\\.request_latency_min_us",
	"schbench\\.wakeup_latency_max_us",
	"schbench\\.wakeup_latency_min_us",
	"simoop\\.read_latency_usec\\.p95",
	"simoop\\.read_latency_usec\\.p99",
	"simoop\\.write_latency_usec\\.p95",
	"simoop\\.write_latency_usec\\.p99",
	"sockperf\\..+\\.avg-lat",
	"sockperf\\..+\\.std-dev",
	"stress-ng\\.vm\\.ms_m(un)?map_(avg|max|min)\\._duration",
	"sysbench-fileio\\.latency_95th_ms",
	"sysbench-fileio\\.latency_max_ms",
	"tbench\\.max_latency",
	"thrulay\\.jitter",
	"thrulay\\.RTT",
	"vm-scalability\\.stddev",
};

/* etc/index-perf-all.yaml: key and direction (1 higher is better) */
struct directed_re {
	const char *re;
	int dir;
};

static const struct directed_re index_perf[] = {
	{ ".+\\.throughput", 1 },
	{ "adrestia\\.wakeup_cost_periodic_us", -1 },
	{ "adrestia\\.wakeup_cost_single_us", -1 },
	{ "aim7\\.jobs-per-min", 1 },
	{ "aim9\\..+\\.ops_per_sec", 1 },
	{ "apachebench\\.requests_per_second", 1 },
	{ "autonuma-benchmark\\..+\\.seconds", -1 },
	{ "blogbench\\..+_score", 1 },
	{ "cassandra\\.Op.+rate", 1 },
	{ "chromeswap\\.throughput_swap_cycles_per_second", -1 },
	{ "coremark\\.iterations_per_sec", 1 },
	{ "dbench\\.throughput-MB\\/sec", 1 },
	{ "dbench\\.throughput_MB\\/s", 1 },
	{ "dd\\..+_time_ms", -1 },
	{ "exit-free\\.duration", -1 },
	{ "filebench\\.sum_operations\\/s", 1 },
	{ "fio\\..+_bw_MBps", 1 },
	{ "fio\\..+_iops", 1 },
	{ "fsmark\\.app_overhead", -1 },
	{ "fsmark\\.files_per_sec", 1 },
	{ "ftq\\.max", 1 },
	{ "ftq\\.mean", 1 },
	{ "ftrace-onoff\\.ops", 1 },
	{ "fwq\\.fwq\\.max", 1 },
	{ "fwq\\.fwq\\.med", 1 },
	{ "fwq\\.fwq\\.min", 1 },
	{ "fxmark\\..+\\.works\\/sec", 1 },
	{ "glbenchmark\\.fps", 1 },
	{ "hpcc\\.HPL_Tflops", 1 },
	{ "hpcc\\.PTRANS_GBs", 1 },
	{ "idle\\.turbostat.Busy%", -1 },
	{ "iostat\\..+\\.wkB\\/s", 1 },
	{ "iozone\\.average_KBps", 1 },
	{ "iperf\\..+\\.bps", 1 },
	{ "kbuild\\..+_per_iteration", -1 },
	{ "kernbench\\.elapsed_time", -1 },
	{ "kselftests\\..+\\.packets_per_sec", 1 },
	{ "kselftests\\..+\\.usec_per_loop", -1 },
	{ "kselftests\\.mqueue\\.nsec_per_msg", -1 },
	{ "linkbench\\.requests\\/s", 1 },
	{ "linpack\\.GFlops", 1 },
	{ "lmbench3\\..+\\.MB\\/sec", 1 },
	{ "lmbench3\\.Pagefaults\\.ms", -1 },
	{ "mcperf\\..+_rate_.+\\/s", 1 },
	{ "memtier\\..+_ops\\/s", 1 },
	{ "mutilate\\..+\\.speed", 1 },
	{ "nepim\\..+\\.kbps_in", 1 },
	{ "nepim\\..+\\.kbps_out", 1 },
	{ "netperf\\.Throughput_Mbps", 1 },
	{ "netperf\\.Throughput_tps", 1 },
	{ "netpipe\\..+\\.avg", 1 },
	{ "nuttcp\\.throughput_Mbps", 1 },
	{ "oltp\\..+\\/s", 1 },
	{ "openssl-speed\\..+_per_sec", 1 },
	{ "openssl-speed\\..+_size_block_Kbps", 1 },
	{ "perf-bench-futex\\.ops\\/s", 1 },
	{ "perf-bench-futex\\.requeued_time_ms", -1 },
	{ "perf-bench-futex\\.wokeup_time_ms", -1 },
	{ "perf-bench-numa-mem\\.GB_sec_thread", 1 },
	{ "perf-bench-numa-mem\\.GB_sec_total", 1 },
	{ "perf-bench-sched-pipe\\.ops_per_sec", 1 },
	{ "pft\\.faults_per_sec_per_cpu", 1 },
	{ "pgbench\\.tps", 1 },
	{ "pmbench\\.throughput\\.aps", 1 },
	{ "postmark\\.transactions", 1 },
	{ "power-idle\\.turbostat\\.Busy%", -1 },
	{ "power-idle\\.turbostat\\.Bzy_MHz", -1 },
	{ "power-idle\\.turbostat\\.PkgTemp", -1 },
	{ "power-idle\\.turbostat\\.PkgWatt", -1 },
	{ "pts\\..+\\..+_max_teps", 1 },
	{ "pts\\..+\\..+_median_teps", 1 },
	{ "pts\\..+\\..+_per_second", 1 },
	{ "pts\\..+\\..+_time_-_seconds", 1 },
	{ "pts\\..+\\..+___sec", 1 },
	{ "pts\\..+\\.activity_level", 1 },
	{ "pts\\..+\\.average_mbytes_sec", 1 },
	{ "pts\\..+\\.average_msg_sec", 1 },
	{ "pts\\..+\\.average_usec", 1 },
	{ "pts\\..+\\.batches_sec", 1 },
	{ "pts\\..+\\.billion_interactions_s", 1 },
	{ "pts\\..+\\.bogo_ops_s", 1 },
	{ "pts\\..+\\.byte_s", 1 },
	{ "pts\\..+\\.cg_mflops", 1 },
	{ "pts\\..+\\.clocks", -1 },
	{ "pts\\..+\\.cycles_hash", 1 },
	{ "pts\\..+\\.cycles_per_byte", 1 },
	{ "pts\\..+\\.days_ns", -1 },
	{ "pts\\..+\\.figure_of_merit", 1 },
	{ "pts\\..+\\.files_s", 1 },
	{ "pts\\..+\\.final_score", 1 },
	{ "pts\\..+\\.flops_rank", 1 },
	{ "pts\\..+\\.fps", 1 },
	{ "pts\\..+\\.frames", 1 },
	{ "pts\\..+\\.gbps", 1 },
	{ "pts\\..+\\.gb_s", 1 },
	{ "pts\\..+\\.gfinst_s", 1 },
	{ "pts\\..+\\.gflops", 1 },
	{ "pts\\..+\\.gflop_s", 1 },
	{ "pts\\..+\\.ghash_s", 1 },
	{ "pts\\..+\\.giops", 1 },
	{ "pts\\..+\\.global_score", 1 },
	{ "pts\\..+\\.gmpbench_score", 1 },
	{ "pts\\..+\\.h_s", 1 },
	{ "pts\\..+\\.images_sec", 1 },
	{ "pts\\..+\\.iops", 1 },
	{ "pts\\..+\\.ips", 1 },
	{ "pts\\..+\\.iterations_per_minute", 1 },
	{ "pts\\..+\\.iterations_sec", 1 },
	{ "pts\\..+\\.kb", 1 },
	{ "pts\\..+\\.kh_s", 1 },
	{ "pts\\..+\\.k_s", 1 },
	{ "pts\\..+\\.lookups_s", 1 },
	{ "pts\\..+\\.loop_time", -1 },
	{ "pts\\..+\\.lps", 1 },
	{ "pts\\..+\\.major_kernels_total_rate", 1 },
	{ "pts\\..+\\.marks", 1 },
	{ "pts\\..+\\.mbits_sec", 1 },
	{ "pts\\..+\\.mbps", 1 },
	{ "pts\\..+\\.mbytes_s", 1 },
	{ "pts\\..+\\.mbyte_s", 1 },
	{ "pts\\..+\\.MB\\/s", 1 },
	{ "pts\\..+\\.mb_s", 1 },
	{ "pts\\..+\\.mcells_s", 1 },
	{ "pts\\..+\\.megapixels_sec", 1 },
	{ "pts\\..+\\.mflops", 1 },
	{ "pts\\..+\\.mib_s", 1 },
	{ "pts\\..+\\.microamps", -1 },
	{ "pts\\..+\\.microseconds", -1 },
	{ "pts\\..+\\.milli-seconds", -1 },
	{ "pts\\..+\\.milliseconds", 1 },
	{ "pts\\..+\\.milliwatts", -1 },
	{ "pts\\..+\\.mips", 1 },
	{ "pts\\..+\\.mpix_sec", 1 },
	{ "pts\\..+\\.mpx_s", 1 },
	{ "pts\\..+\\.mp_s", 1 },
	{ "pts\\..+\\.mrays_s", 1 },
	{ "pts\\..+\\.ms", -1 },
	{ "pts\\..+\\.msec", -1 },
	{ "pts\\..+\\.ms_average", -1 },
	{ "pts\\..+\\.mt_s", 1 },
	{ "pts\\..+\\.m_samples_s", 1 },
	{ "pts\\..+\\.m_samples_sec", 1 },
	{ "pts\\..+\\.nanoseconds", -1 },
	{ "pts\\..+\\.nanoseconds_operation", -1 },
	{ "pts\\..+\\.new_orders_per_minute", 1 },
	{ "pts\\..+\\.nodes_second", 1 },
	{ "pts\\..+\\.ns", -1 },
	{ "pts\\..+\\.ns_per_event", 1 },
	{ "pts\\..+\\.ops_per_sec", 1 },
	{ "pts\\..+\\.ops_s", 1 },
	{ "pts\\..+\\.ops_sec", 1 },
	{ "pts\\..+\\.op_s", 1 },
	{ "pts\\..+\\.points", -1 },
	{ "pts\\..+\\.quips", 1 },
	{ "pts\\..+\\.real_c_s", 1 },
	{ "pts\\..+\\.receiving_messages_s", 1 },
	{ "pts\\..+\\.records_s", 1 },
	{ "pts\\..+\\.render_ratio", 1 },
	{ "pts\\..+\\.runs_s", 1 },
	{ "pts\\..+\\.samples", 1 },
	{ "pts\\..+\\.samples_sec", 1 },
	{ "pts\\..+\\.score", 1 },
	{ "pts\\..+\\.sec", -1 },
	{ "pts\\..+\\.seconds", -1 },
	{ "pts\\..+\\.sending_messages_s", 1 },
	{ "pts\\..+\\.sign_s", 1 },
	{ "pts\\..+\\.speedup", 1 },
	{ "pts\\..+\\.throughput_fom", 1 },
	{ "pts\\..+\\.total_mop_s", 1 },
	{ "pts\\..+\\.total_score", 1 },
	{ "pts\\..+\\.tps", 1 },
	{ "pts\\..+\\.transactions_per_minute", 1 },
	{ "pts\\..+\\.us", -1 },
	{ "pts\\..+\\.usec", -1 },
	{ "pts\\..+\\.us_per_event", -1 },
	{ "pts\\..+\\.val_sec", 1 },
	{ "pts\\..+\\.verify_s", 1 },
	{ "pts\\..+\\.vgr_performance_metric", 1 },
	{ "pts\\..+\\.vkmark_score", 1 },
	{ "pts\\..+\\.voices", 1 },
	{ "pts\\..+\\.z_s", 1 },
	{ "qperf\\..+\\.bw", 1 },
	{ "qperf\\..+_bw", 1 },
	{ "rcurefscale\\..+-ref-scale\\.duration_per_loop\\.ns", -1 },
	{ "reaim\\.jobs_per_min", 1 },
	{ "redis\\..+_throughput_rps", 1 },
	{ "rt-app\\..+\\.average", -1 },
	{ "simoop\\.work_rate_avg_per_sec", 1 },
	{ "sockperf\\.throughput\\..+\\.BandWidth_MBps", 1 },
	{ "sockperf\\.throughput\\..+\\.msg_per_sec", 1 },
	{ "specjbb2015\\.critical-jOPS", 1 },
	{ "specjbb2015\\.max-jOPS", 1 },
	{ "specjbb2015\\.median", 1 },
	{ "stream\\..+_bandwidth_MBps", 1 },
	{ "stress-ng\\..+_per_item", 1 },
	{ "stress-ng\\..+_per_sec", 1 },
	{ "stress-ng\\..+_per_seek", 1 },
	{ "sysbench-fileio\\..+_operations\\/s", 1 },
	{ "sysbench\\-.+\\.throughput_events\\/s", 1 },
	{ "sysbench\\-.+\\.throughput_MB\\/s", 1 },
	{ "sysbench\\-.+\\.throughput_ops\\/s", 1 },
	{ "tbench\\.throughput_MB\\/s", 1 },
	{ "tcrypt\\.async\\..+\\.decryption", 1 },
	{ "tcrypt\\.async\\..+\\.encryption", 1 },
	{ "thrulay\\.jitter", -1 },
	{ "thrulay\\.RTT", -1 },
	{ "tlbflush\\.mem_acc_cost_ns_time", -1 },
	{ "tlbflush\\.mem_acc_time_thread_ms", -1 },
	{ "tlbflush\\.munmap_ms", -1 },
	{ "tlbflush\\.munmap_ns_time", -1 },
	{ "unixbench\\.score", 1 },
	{ "uperf\\..+bps", 1 },
	{ "vm-scalability\\.median", 1 },
	{ "will-it-scale\\..+_ops", 1 },
	{ "will-it-scale\\.scalability", 1 },
	{ "ycsb\\..+_throughput_ops\\/s", 1 },
};

/*
 * etc/perf-metrics-threshold.yaml, in file order (lkp takes the first
 * key that matches in full).  is_int: the YAML value is an Integer, for
 * which lkp also requires delta >= value / 2 (integer division).
 */
struct threshold {
	const char *re;
	double v;
	bool is_int;
};

static const struct threshold perf_thresholds[] = {
	{ "dd.kill_time", 10, true },
	{ "dd.startup_time", 10, true },
	{ "fileio.latency_95th_ms", 10, true },
	{ "interrupts.*", 100, true },
	{ "iostat.*.avgrq-sz", 200, true },
	{ "iostat.*.await", 50, true },
	{ "iostat.*.[rw]_await", 50, true },
	{ "iostat.*.[rw]kB/s", 100, true },
	{ "iostat.*.[rw]/s", 50, true },
	{ "iostat.*.util", 10, true },
	{ "latency_stats.*", 10000, true },
	{ "perf-profile.*", 1, true },
	{ "proc-vmstat.allocstall", 100, true },
	{ "proc-vmstat.compact_fail", 100, true },
	{ "proc-vmstat.compact_stall", 100, true },
	{ "proc-vmstat.htlb_buddy_alloc_fail", 100, true },
	{ "proc-vmstat.kswapd_high_wmark_hit_quickly", 100, true },
	{ "proc-vmstat.kswapd_low_wmark_hit_quickly", 100, true },
	{ "proc-vmstat.nr_vmscan_immediate_reclaim", 100, true },
	{ "proc-vmstat.nr_vmscan_write", 100, true },
	{ "proc-vmstat.pgmigrate_fail", 100, true },
	{ ".*.time.elapsed_time.*", 10, true },
	{ ".*.time.file_system_inputs", 10000, true },
	{ ".*.time.file_system_outputs", 10000, true },
	{ ".*.time.involuntary_context_switches", 1000, true },
	{ ".*.time.major_page_faults", 1000, true },
	{ ".*.time.minor_page_faults", 1000, true },
	{ ".*.time.socket_messages_received", 10000, true },
	{ ".*.time.socket_messages_sent", 10000, true },
	{ ".*.time.swaps", 1000, true },
	{ ".*.time.system_time", 10, true },
	{ ".*.time.user_time", 10, true },
	{ ".*.time.voluntary_context_switches", 1000, true },
	{ "vmstat.cpu.id", 10, true },
	{ "vmstat.cpu.st", 10, true },
	{ "vmstat.cpu.sy", 50, true },
	{ "vmstat.cpu.us", 10, true },
	{ "vmstat.cpu.wa", 10, true },
	{ "vmstat.io.bi", 100, true },
	{ "vmstat.io.bo", 100, true },
	{ ".*vmstat.*nr_.*", 100, true },
	{ "vmstat.system.cs", 100, true },
	{ "vmstat.system.in", 100, true },
	{ "xfstests.*.seconds", 10, true },
	{ "perf-c2c.HITM.total", 3000, true },
	{ "perf-profile.children.cycles-pp.native_queued_spin_lock_slowpath", 2.0, false },
};

/*
 * Families that are monitors, not tests: lkp's monitors/ directory (and
 * programs/<name>/{monitor,no-stdout-monitor,one-shot-monitor}), plus the
 * families those monitors' parsers emit under another name (max_iostat
 * from iostat, the memory files read by the generic monitor wrapper).
 * Sorted (strcmp) for bsearch.
 */
static const char *const monitor_families[] = {
	"bdi_dev_mapping",
	"blktrace",
	"boot-meminfo",
	"boot-memory",
	"boot-slabinfo",
	"boot-time",
	"bpfcc-tools",
	"bpftrace",
	"buddyinfo",
	"cat-file",
	"cat-proc-pid",
	"cpufreq",
	"cpufreq-stats",
	"cpuid",
	"cpuid-raw",
	"cpuidle",
	"cpuonline",
	"custom-monitor",
	"debug-monitor",
	"diskstats",
	"energy",
	"ethtool",
	"event",
	"ftrace",
	"ftrace-event",
	"ftrace-funcgraph",
	"grep_cpuidle",
	"heartbeat",
	"interrupts",
	"iostat",
	"irq_exception_noise",
	"irq_noise",
	"kmemleak",
	"kthread_noise",
	"kvm",
	"latency_stats",
	"lock_stat",
	"max_iostat",
	"mdstat",
	"meminfo",
	"memmap",
	"memory--numa_stat",
	"memory--stat",
	"mountstats",
	"mpstat",
	"nfs-hang",
	"nfsstat",
	"numa-meminfo",
	"numa-numastat",
	"numa-vmstat",
	"numainfo",
	"oom-killer",
	"pagetypeinfo",
	"perf-c2c",
	"perf-mem",
	"perf-node",
	"perf-probe",
	"perf-profile",
	"perf-pt",
	"perf-record-report",
	"perf-report-srcline",
	"perf-sched",
	"perf-stat",
	"pmeter",
	"pmeter:yokogawa-wt310",
	"pmeter_extech",
	"pmu-tools",
	"proc-stat",
	"proc-vmstat",
	"sar",
	"save_on_exit",
	"sched_debug",
	"slabinfo",
	"softirqs",
	"stack",
	"syscalls",
	"thermal",
	"top",
	"toplev",
	"trace-cmd",
	"turbostat",
	"uptime",
	"vmstat",
	"watch-oom",
	"watchdog",
	"wrapper",
	"zoneinfo",
};

/* lkp's own families: neither tests nor monitors.  Sorted. */
static const char *const special_families[] = {
	"dmesg",
	"kmsg",
	"last_state",
	"stats_source",
	"stderr",
	"time",
};

/*
 * etc/linux-test-cases and etc/other-test-cases: functional (pass/fail)
 * and housekeeping tests, whose metrics are not performance metrics.
 * Sorted.
 */
static const char *const non_perf_tests[] = {
	"analyze-suspend",
	"avocado",
	"blktests",
	"boot",
	"borrow",
	"btest",
	"bust-shm-exit",
	"cat",
	"cgroup2-test",
	"convert-lkpdoc-to-html",
	"convert-lkpdoc-to-html-css",
	"cpu-hotplug",
	"debootstrap",
	"debug",
	"deploy-clang",
	"dpdk-dts",
	"ext4-frags",
	"ftq",
	"ftrace-onoff",
	"fwq",
	"fxmark",
	"galileo",
	"generate-md",
	"health-stats",
	"hwinfo",
	"hwsim",
	"idle-inject",
	"ipmi-setup",
	"irda-kernel",
	"kernel-builtin",
	"kmemleak-test",
	"kselftests",
	"kselftests-bpf",
	"kselftests-rust",
	"ktools",
	"kunit",
	"kvm-kernel-boot-test",
	"kvm-unit-tests",
	"kvm-unit-tests-qemu",
	"leaking-addresses",
	"libhugetlbfs-test",
	"lkp-install-run",
	"lkp-qemu",
	"lkp-serial-server",
	"lkp-services",
	"lkp-src",
	"lkvs",
	"locktorture",
	"ltp",
	"makepkg",
	"makepkg-deps",
	"mbtest",
	"mce-log",
	"mce-test",
	"mdadm-selftests",
	"ndctl",
	"nfs-test",
	"nvml",
	"ocfs2test",
	"otc-ddt",
	"pack",
	"pack-deps",
	"packetdrill",
	"perf-fuzzer",
	"perf-sanity-tests",
	"perf-stat-tests",
	"perf-test",
	"piglit",
	"pm-qa",
	"pmeter-server",
	"qa",
	"qat",
	"qemu",
	"rcuscale",
	"rcutorture",
	"rdma-pyverb",
	"reboot",
	"rocksdb",
	"rsync-rootfs",
	"suspend",
	"suspend-stress",
	"test-bpf",
	"trinity",
	"update-ucode",
	"upgrade-trinity",
	"v4l2",
	"vmem",
	"xfstests",
};

/* ------------------------------------------------------------------ */
/* Lookups                                                             */
/* ------------------------------------------------------------------ */

/* Is the len bytes at name one of the sorted words? */
static bool in_sorted(const char *const *words, size_t nr, const char *name, int len)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strncmp(words[mid], name, (size_t)len);

		if (c == 0 && words[mid][len] != '\0')
			c = 1;
		if (c == 0)
			return true;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static const struct lkp_pattern_table failure_table = TABLE(failure_re, LKP_ANCHOR_START);
static const struct lkp_pattern_table pass_table = TABLE(pass_re, LKP_ANCHOR_START);
static const struct lkp_pattern_table denylist_table = LEAD_TABLE(stat_denylist_re, LKP_ANCHOR_NONE);
static const struct lkp_pattern_table denylist_free_table = TABLE(stat_denylist_free_re, LKP_ANCHOR_NONE);
static const struct lkp_pattern_table denylist_dmesg_table = TABLE(stat_denylist_dmesg_re, LKP_ANCHOR_NONE);
static const struct lkp_pattern_table denylist_kmsg_table = TABLE(stat_denylist_kmsg_re, LKP_ANCHOR_NONE);
static const struct lkp_pattern_table allowlist_table = LEAD_TABLE(stat_allowlist_re, LKP_ANCHOR_NONE);
static const struct lkp_pattern_table report_table = LEAD_TABLE(report_allowlist_re, LKP_ANCHOR_NONE);
static const struct lkp_pattern_table perf_re_table = TABLE(perf_metrics_re, LKP_ANCHOR_NONE);
static const struct lkp_pattern_table perf_prefix_table = LEAD_TABLE(perf_metrics_prefix_re, LKP_ANCHOR_START);
static const struct lkp_pattern_table latency_table = LEAD_TABLE(index_latency_re, LKP_ANCHOR_FULL);

/* Which of a struct lkp_tables_cache's lists holds a table's facts */
enum list_id {
	L_FAILURE, L_PASS, L_DENY, L_DENY_FREE, L_DENY_DMESG, L_DENY_KMSG, L_ALLOW,
	L_REPORT, L_PERF_RE, L_PERF_PREFIX, L_LATENCY, L_THRESHOLDS, L_NR
};
_Static_assert(L_NR == LKP_TABLES_NR_LISTS, "one cache list per table");

static struct lkp_re_cache *list_of(struct lkp_tables_cache *c, enum list_id id)
{
	return c ? &c->list[id] : NULL;
}

static bool match(struct lkp_tables_cache *c, enum list_id id, const struct lkp_pattern_table *t,
		  const char *stat)
{
	return lkp_table_match_cached(t, list_of(c, id), stat);
}

void lkp_tables_cache_release(struct lkp_tables_cache *c)
{
	for (int i = 0; i < L_NR; i++)
		lkp_re_cache_release(&c->list[i]);
}

bool lkp_function_stat(const char *stat)
{
	return lkp_function_stat_cached(NULL, stat);
}

bool lkp_function_stat_cached(struct lkp_tables_cache *c, const char *stat)
{
	if (strstr(stat, ".time.") || strstr(stat, ".timestamp:") ||
	    strstr(stat, ".bootstage:"))
		return false;
	return match(c, L_FAILURE, &failure_table, stat) || match(c, L_PASS, &pass_table, stat);
}

bool lkp_latency_stat(const char *stat)
{
	return lkp_latency_stat_cached(NULL, stat);
}

bool lkp_latency_stat_cached(struct lkp_tables_cache *c, const char *stat)
{
	return match(c, L_LATENCY, &latency_table, stat);
}

bool lkp_test_base(const char *base, int len)
{
	if (len <= 0)
		return false;
	return !in_sorted(monitor_families, ARRAY_SIZE(monitor_families), base, len) &&
	       !in_sorted(special_families, ARRAY_SIZE(special_families), base, len);
}

bool lkp_test_stat(const char *stat)
{
	const char *dot = strchr(stat, '.');
	int len = dot ? (int)(dot - stat) : (int)strlen(stat);

	if (!lkp_test_base(stat, len))
		return false;
	/* kpi_stat?: "<test>.time.*" is the time monitor's view of the test */
	return !(dot && !strncmp(dot + 1, "time.", 5));
}

bool lkp_perf_metric(const char *stat)
{
	return lkp_perf_metric_cached(NULL, stat);
}

bool lkp_perf_metric_cached(struct lkp_tables_cache *c, const char *stat)
{
	const char *dot;
	int len;

	if (match(c, L_PERF_RE, &perf_re_table, stat) ||
	    match(c, L_PERF_PREFIX, &perf_prefix_table, stat))
		return true;
	/* the test prefixes ("<test>.") of performance tests */
	dot = strchr(stat, '.');
	if (!dot)
		return false;
	len = (int)(dot - stat);
	return lkp_test_base(stat, len) &&
	       !in_sorted(non_perf_tests, ARRAY_SIZE(non_perf_tests), stat, len);
}

bool lkp_reasonable_perf_change(const char *stat, double delta, double max)
{
	return lkp_reasonable_perf_change_cached(NULL, stat, delta, max);
}

bool lkp_reasonable_perf_change_cached(struct lkp_tables_cache *c, const char *stat,
				       double delta, double max)
{
	for (size_t i = 0; i < ARRAY_SIZE(perf_thresholds); i++) {
		const struct threshold *t = &perf_thresholds[i];

		if (!lkp_table_re_match_cached(list_of(c, L_THRESHOLDS), i, ARRAY_SIZE(perf_thresholds),
					       t->re, stat, LKP_ANCHOR_FULL))
			continue;
		if (max < t->v)
			return false;
		if (t->is_int && delta < floor(t->v / 2))
			return false;
		return true;
	}

	if (!strncmp(stat, "iostat", 6))
		return max > 1;
	if (!strncmp(stat, "pagetypeinfo", 12) || !strncmp(stat, "buddyinfo", 9) ||
	    !strncmp(stat, "slabinfo", 8))
		return delta > 100;
	if (!strncmp(stat, "proc-vmstat", 11) || strstr(stat, "meminfo"))
		return max > 1000;
	if (!strncmp(stat, "lock_stat", 9)) {
		if (!strcmp(stat, "waittime-total"))
			return delta > 10000;
		if (!strcmp(stat, "holdtime-total"))
			return delta > 100000;
		if (strstr(stat, "time"))
			return delta > 1000;
		return delta > 10000;
	}
	if (!strncmp(stat, "interrupts", 10) || !strncmp(stat, "softirqs", 8))
		return max > 10000;
	return true;
}

bool lkp_bisectable_stat(const char *stat)
{
	return lkp_bisectable_stat_cached(NULL, stat);
}

bool lkp_bisectable_stat_cached(struct lkp_tables_cache *c, const char *stat)
{
	if (match(c, L_ALLOW, &allowlist_table, stat))
		return true;
	if (!strncmp(stat, "dmesg.", 6) && match(c, L_DENY_DMESG, &denylist_dmesg_table, stat))
		return false;
	if (!strncmp(stat, "kmsg.", 5) && match(c, L_DENY_KMSG, &denylist_kmsg_table, stat))
		return false;
	return !match(c, L_DENY, &denylist_table, stat) &&
	       !match(c, L_DENY_FREE, &denylist_free_table, stat);
}

bool lkp_report_allowlisted(const char *stat)
{
	return lkp_report_allowlisted_cached(NULL, stat);
}

bool lkp_report_allowlisted_cached(struct lkp_tables_cache *c, const char *stat)
{
	return match(c, L_REPORT, &report_table, stat);
}

/*
 * Name heuristics for KPIs missing from lkp's index tables.  TOKEN words
 * must stand between non-alphanumeric characters ("ops" but not "loops"),
 * SUFFIX ones end the name or a token ("_ms" but not "_msg").
 */
enum word_pos { ANYWHERE, TOKEN, SUFFIX };

struct direction_word {
	const char *word;
	enum word_pos pos;
	int dir;
};

static const struct direction_word direction_words[] = {
	{ "latency", ANYWHERE, -1 },
	{ "elapsed", ANYWHERE, -1 },
	{ "_time", SUFFIX, -1 },
	{ "_ns", SUFFIX, -1 },
	{ "_us", SUFFIX, -1 },
	{ "_ms", SUFFIX, -1 },
	{ "throughput", ANYWHERE, 1 },
	{ "jobs-per-min", ANYWHERE, 1 },
	{ "_per_sec", ANYWHERE, 1 },
	{ "bandwidth", ANYWHERE, 1 },
	{ "ops", TOKEN, 1 },
	{ "iops", TOKEN, 1 },
};

static bool word_at(const char *stat, const struct direction_word *w)
{
	size_t n = strlen(w->word);

	for (const char *p = strstr(stat, w->word); p; p = strstr(p + 1, w->word)) {
		char before = p == stat ? '.' : p[-1], after = p[n];

		switch (w->pos) {
		case ANYWHERE:
			return true;
		case TOKEN:
			if (!lkp_is_alnum(before) && !lkp_is_alnum(after))
				return true;
			break;
		case SUFFIX:
			if (!lkp_is_alnum(after))
				return true;
			break;
		}
	}
	return false;
}

/* lib/stats.rb's $kpi_stat_denylist: test metrics that are not KPIs */
/* etc/index-perf.yaml: each test's primary metrics (the weight is unused
 * here, so nepim's 0.5 is written 1: the field is an int direction),
 * fewer than index-perf-all's key metrics: vm-scalability.throughput, not
 * vm-scalability.median */
static const struct directed_re index_perf_primary[] = {
	{ "aim7\\.jobs-per-min", 1 },
	{ "aim9\\..+\\.ops_per_sec", 1 },
	{ "apachebench\\.requests_per_second", 1 },
	{ "blogbench\\..+\\_score", 1 },
	{ "boot-time\\.boot", -1 },
	{ "boot-time\\.dhcp", -1 },
	{ "dbench\\.throughput-MB\\/sec", 1 },
	{ "ebizzy\\.throughput", 1 },
	{ "fio\\..+\\_iops", 1 },
	{ "fio\\..+\\_MBps", 1 },
	{ "fio\\..+\\_us", -1 },
	{ "fsmark\\.files_per_sec", 1 },
	{ "ftq\\.counts", 1 },
	{ "ftrace-onoff\\.ops", 1 },
	{ "fwq\\.counts", 1 },
	{ "glbenchmark\\.fps", 1 },
	{ "hackbench\\.throughput", 1 },
	{ "iostat\\..+\\.wkB\\/s", 1 },
	{ "iozone\\.average_KBps", 1 },
	{ "iperf\\..+\\.bps", 1 },
	{ "kbuild\\.build-time", -1 },
	{ "kbuild\\.time\\.elapsed_time", -1 },
	{ "linpack\\.GFlops", 1 },
	{ "nepim\\..+\\.kbps_in", 1 },
	{ "nepim\\..+\\.kbps_out", 1 },
	{ "netperf\\.Throughput_Mbps", 1 },
	{ "netperf\\.Throughput_tps", 1 },
	{ "nuttcp\\.throughput_Mbps", 1 },
	{ "pbzip2\\.throughput", 1 },
	{ "perf-bench-numa-mem\\.GB_sec_total", 1 },
	{ "perf-bench-sched-pipe\\.ops_per_sec", 1 },
	{ "pft\\.faults_per_sec_per_cpu", 1 },
	{ "pigz\\.throughput", 1 },
	{ "pixz\\.throughput", 1 },
	{ "qperf\\..+\\.bw", 1 },
	{ "qperf\\..+\\_bw", 1 },
	{ "reaim\\.jobs_per_min", 1 },
	{ "sockperf\\..+\\_MBps", 1 },
	{ "sysbench-fileio\\..+_operations\\/s", 1 },
	{ "tbench\\.throughput-MB\\/sec", 1 },
	{ "thrulay\\.throughput", 1 },
	{ "tlbflush\\.mem_acc_cost_ns_time", -1 },
	{ "unixbench\\.score", 1 },
	{ "unixbench\\.throughput", 1 },
	{ "uperf\\..+bps", 1 },
	{ "vm-scalability\\.migrate_mbps", 1 },
	{ "vm-scalability\\.throughput", 1 },
	{ "will-it-scale\\..+\\_ops", 1 },
	{ "will-it-scale\\.scalability", 1 },
};

static const char *const kpi_denylist[] = {
	"vm-scalability.stddev",
	"unixbench.incomplete_result",
};

bool lkp_kpi_stat(const char *stat)
{
	for (size_t i = 0; i < ARRAY_SIZE(kpi_denylist); i++)
		if (!strcmp(stat, kpi_denylist[i]))
			return false;
	return lkp_test_stat(stat);
}

int lkp_primary_rank(const char *stat)
{
	for (size_t i = 0; i < ARRAY_SIZE(index_perf_primary); i++)
		if (lkp_table_re_match(index_perf_primary[i].re, stat, LKP_ANCHOR_FULL))
			return (int)i + 1;
	return 0;
}

int lkp_kpi_direction(const char *stat)
{
	for (size_t i = 0; i < ARRAY_SIZE(index_perf); i++)
		if (lkp_table_re_match(index_perf[i].re, stat, LKP_ANCHOR_FULL))
			return index_perf[i].dir;
	if (lkp_table_match(&latency_table, stat))
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(direction_words); i++)
		if (word_at(stat, &direction_words[i]))
			return direction_words[i].dir;
	return 0;
}

const char *lkp_tables_selfcheck(void)
{
	static const struct lkp_pattern_table *const tables[] = {
		&failure_table, &pass_table, &denylist_table, &denylist_free_table,
		&denylist_dmesg_table, &denylist_kmsg_table, &allowlist_table,
		&report_table, &perf_re_table, &perf_prefix_table, &latency_table,
	};

	for (size_t i = 0; i < ARRAY_SIZE(tables); i++) {
		const char *bad = lkp_table_check(tables[i]);
		if (bad)
			return bad;
	}
	for (size_t i = 0; i < ARRAY_SIZE(perf_thresholds); i++)
		if (!lkp_table_pattern_ok(perf_thresholds[i].re))
			return perf_thresholds[i].re;
	for (size_t i = 0; i < ARRAY_SIZE(index_perf); i++)
		if (!lkp_table_pattern_ok(index_perf[i].re))
			return index_perf[i].re;
	for (size_t i = 0; i < ARRAY_SIZE(index_perf_primary); i++)
		if (!lkp_table_pattern_ok(index_perf_primary[i].re))
			return index_perf_primary[i].re;
	for (size_t i = 1; i < ARRAY_SIZE(monitor_families); i++)
		if (strcmp(monitor_families[i - 1], monitor_families[i]) >= 0)
			return monitor_families[i];
	for (size_t i = 1; i < ARRAY_SIZE(non_perf_tests); i++)
		if (strcmp(non_perf_tests[i - 1], non_perf_tests[i]) >= 0)
			return non_perf_tests[i];
	for (size_t i = 1; i < ARRAY_SIZE(special_families); i++)
		if (strcmp(special_families[i - 1], special_families[i]) >= 0)
			return special_families[i];
	return NULL;
}
