/* Unit tests of the dmesg parser (src/parse/dmesg.c): lkp's error ids of
 * kernel reports, timestamps, one count per error per boot. */
#include "test_helpers.h"
#include "parse/dmesg.h"
#include "parse/parser.h"

static void expect_id(const char *msg, const char *want)
{
	struct strbuf id = STRBUF_INIT;
	int r = dmesg_error_id(msg, strlen(msg), &id);
	if (!want) {
		if (r)
			fail_msg("'%s' named '%s', expected no error", msg, id.buf);
	} else if (!r || strcmp(id.buf, want)) {
		fail_msg("'%s' named '%s', expected '%s'", msg, r ? id.buf : "(none)", want);
	}
	strbuf_release(&id);
}

/* the names lkp gives these reports (its dmesg stats of the same lines) */
static void test_error_ids(void **state)
{
	(void)state;
	expect_id("WARNING: CPU: 0 PID: 546 at kernel/trace/ftrace.c:2006 ftrace_bug+0x216/0x330",
		  "WARNING:at_kernel/trace/ftrace.c:#ftrace_bug");
	expect_id("WARNING: CPU: 1 PID: 10 at kernel/sched/core.c:9861 __might_sleep+0x4c/0x70()",
		  "WARNING:at_kernel/sched/core.c:#__might_sleep()");
	expect_id("WARNING: CPU: 3 PID: 77 at mm/vmscan.c:1234 shrink_folio_list.isra.0+0x1f/0x40",
		  "WARNING:at_mm/vmscan.c:#shrink_folio_list");
	expect_id("RIP: 0010:ftrace_bug+0x216/0x330", "RIP:ftrace_bug");
	expect_id("RIP: 0010:do_one.constprop.0+0x1/0x2", "RIP:do_one");
	expect_id("Oops: 0002 [#1] PREEMPT SMP", "Oops:#[##]");
	expect_id("invalid opcode: 0000 [#1] SMP", "invalid_opcode:#[##]");
	expect_id("Kernel panic - not syncing: Fatal exception", "Kernel_panic-not_syncing:Fatal_exception");
	expect_id("---[ end Kernel panic - not syncing: Fatal exception ]---",
		  "Kernel_panic-not_syncing:Fatal_exception");
	expect_id("Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000100",
		  "Kernel_panic-not_syncing:Attempted_to_kill_init!exitcode=");
	expect_id("Kernel panic - not syncing: No working init found.  Try passing init= option to kernel. "
		  "See Linux Documentation/admin-guide/init.rst for guidance.",
		  "Kernel_panic-not_syncing:No_working_init_found");
	expect_id("01-cpu-hotplug invoked oom-killer: gfp_mask=0x27080c0(GFP_KERNEL_ACCOUNT|__GFP_ZERO), "
		  "order=0, oom_score_adj=0", "invoked_oom-killer:gfp_mask=0x");
	expect_id("Mem-Info:", "Mem-Info");
	expect_id("BUG: soft lockup - CPU#0 stuck for 22s! [swapper:1]",
		  "BUG:soft_lockup-CPU##stuck_for#s![swapper:#]");
	expect_id("BUG: sleeping function called from invalid context at kernel/irq/manage.c:2100",
		  "BUG:sleeping_function_called_from_invalid_context_at_kernel/irq/manage.c");
	expect_id("swapper/0: page allocation failure: order:10, mode:0x24040c0(GFP_KERNEL|__GFP_NORETRY)",
		  "page_allocation_failure:order:#,mode:#(GFP_KERNEL|__GFP_NORETRY)");
	expect_id("kernel BUG at mm/vmscan.c:1234!", "kernel_BUG_at_mm/vmscan.c");
	expect_id("BUG: kernel NULL pointer dereference, address: 0000000000000008",
		  "BUG:kernel_NULL_pointer_dereference,address");
	expect_id("BUG: unable to handle page fault for address: ffffffffff600400",
		  "BUG:unable_to_handle_page_fault_for_address");
	expect_id("BUG: unable to handle kernel paging request at ffff88007c3c0000",
		  "BUG:unable_to_handle_kernel");
	expect_id("BUG: KASAN: slab-out-of-bounds in kfd_create_crat_image_virtual+0x129d/0x12fd",
		  "BUG:KASAN:slab-out-of-bounds_in_kfd_create_crat_image_virtual");
	expect_id("INFO: task kworker/0:1:12 blocked for more than 120 seconds.",
		  "INFO:task_blocked_for_more_than#seconds");
	expect_id("UBSAN: shift-out-of-bounds in drivers/of/unittest.c:1893:36",
		  "UBSAN:shift-out-of-bounds_in_drivers/of/unittest.c");
	expect_id("BUG kmalloc-512 (Tainted: G S      W       T ): Right Redzone overwritten",
		  "BUG_kmalloc-#:Right_Redzone_overwritten");
	/* what perfbot appends where the kernel could not say it (serial.h) */
	expect_id("BUG: kernel boot hang", "BUG:kernel_boot_hang");
	expect_id("BUG: kernel early-boot hang", "BUG:kernel_early-boot_hang");
	expect_id("BUG: kernel test crashed", "BUG:kernel_test_crashed");
	/* ordinary lines name nothing */
	expect_id("Run /init as init process", NULL);
	expect_id("x86/mm: Checked W+X mappings: passed, no W+X pages found.", NULL);
	expect_id("perfbot-guest: init 1.52", NULL);
	expect_id("warning: process `trinity-c0' used the deprecated sysctl", NULL);
	/* control bytes: console noise, not a report */
	expect_id("WARNING: \x01garbage at x+0x1/0x2", NULL);
}

static void test_stamps(void **state)
{
	size_t off;
	const char *l;
	(void)state;
	l = "[   16.238279] WARNING: x";
	assert_true(kmsg_stamp(l, strlen(l), &off) == 16.238279);
	assert_string_equal(l + off, "WARNING: x");
	l = "[    0.049111][    T1] BUG: y";
	assert_true(kmsg_stamp(l, strlen(l), &off) == 0.049111);
	assert_string_equal(l + off, "BUG: y");
	l = "<4>[    2.000000] Oops";
	assert_true(kmsg_stamp(l, strlen(l), &off) == 2.0);
	assert_string_equal(l + off, "Oops");
	l = "perfbot-guest: init 1.5";
	assert_true(kmsg_stamp(l, strlen(l), &off) < 0);
	assert_int_equal(off, 0);
	l = "[ 12.5 no bracket";
	assert_true(kmsg_stamp(l, strlen(l), &off) < 0);
	l = "[abc] text";
	assert_true(kmsg_stamp(l, strlen(l), &off) < 0);
}

static void test_parser_output(void **state)
{
	const char *log =
		"[    0.000000] Linux version 6.1.0\r\n"
		"[    1.100000] WARNING: CPU: 0 PID: 1 at mm/vmscan.c:12 shrink+0x1/0x2\n"
		"[    1.200000] RIP: 0010:shrink+0x1/0x2\n"
		"[    1.300000] WARNING: CPU: 1 PID: 9 at mm/vmscan.c:12 shrink+0x1/0x2\n"
		"perfbot-guest: init 1.40\n"
		"[    2.500000] reboot: Restarting system\n";
	const char *want =
		"boot_failures: 1\n"
		"WARNING:at_mm/vmscan.c:#shrink: 1\n"
		"RIP:shrink: 1\n"
		"timestamp:last: 2.500000\n"
		"timestamp:WARNING:at_mm/vmscan.c:#shrink: 1.100000\n"
		"timestamp:RIP:shrink: 1.200000\n";
	const struct parser *p = parser_find("dmesg");
	struct strbuf out = STRBUF_INIT;
	(void)state;
	assert_non_null(p);
	struct parse_input in = { log, strlen(log), "dmesg", NULL };
	assert_int_equal(p->parse(&in, &out), 0);
	assert_string_equal(out.buf, want);
	/* a clean boot: only the last timestamp */
	strbuf_reset(&out);
	struct parse_input clean = { "[    3.000000] Run /init\n", 24, "dmesg", NULL };
	assert_int_equal(p->parse(&clean, &out), 0);
	assert_string_equal(out.buf, "timestamp:last: 3.000000\n");
	strbuf_reset(&out);
	struct parse_input none = { "", 0, "dmesg", NULL };
	assert_int_equal(p->parse(&none, &out), 0);
	assert_string_equal(out.buf, "");
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_ids),
		cmocka_unit_test(test_stamps),
		cmocka_unit_test(test_parser_output),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
