/*
 * fuzz_parse: every parser of the registry (src/parse/parsers.h) and each
 * monitor's own parser, run as `perfbot parse NAME` runs them.
 *
 * Input: the parser's name, a newline, then the raw output.  A name keeps
 * the seeds and the crash files readable and stable when the registry
 * grows; libFuzzer learns the names from the strcmp in parser_find.
 * Properties: no crash, leak or undefined behaviour; a parser that returns
 * 0 wrote only whole "key: value" lines.
 *
 * With PERFBOT_FUZZ_STATS set, the number of inputs run per parser is
 * written to that file at exit ("NAME N" lines), for `make fuzz`'s table.
 */
#include "fuzz.h"
#include "monitor/monitor.h"
#include "parse/parser.h"

#include <string.h>

#define MAX_PARSERS 128

struct target {
	const char *name;
	const struct parser *parser;
	const struct monitor *monitor;
	unsigned long long runs;
};

static struct target targets[MAX_PARSERS];
static int nr_targets;

static void write_stats(void)
{
	const char *path = getenv("PERFBOT_FUZZ_STATS");
	FILE *f;

	if (!path || !(f = fopen(path, "w")))
		return;
	for (int i = 0; i < nr_targets; i++)
		fprintf(f, "%s %llu\n", targets[i].name, targets[i].runs);
	fclose(f);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	for (const struct parser *const *p = parser_all(); *p; p++) {
		if ((*p)->unimplemented_reason || nr_targets == MAX_PARSERS)
			continue;
		targets[nr_targets].name = (*p)->name;
		targets[nr_targets++].parser = *p;
	}
	for (const struct monitor *const *m = monitor_all(); *m; m++) {
		if (parser_find((*m)->name) || nr_targets == MAX_PARSERS)
			continue;
		targets[nr_targets].name = (*m)->name;
		targets[nr_targets++].monitor = *m;
	}
	atexit(write_stats);
	return 0;
}

static struct target *find_target(const char *name)
{
	for (int i = 0; i < nr_targets; i++)
		if (!strcmp(targets[i].name, name))
			return &targets[i];
	return NULL;
}

/* Every line of a successful parse is "key: value\n" with a key, or one of
 * lkp's "# ..." comment lines (vm-scalability's "# N SUM"). */
static void check_stats_lines(const struct target *t, const struct strbuf *out)
{
	const char *p = out->buf, *end = out->buf + out->len;

	FUZZ_CHECK(!out->len || end[-1] == '\n', "%s: output does not end in a newline", t->name);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		/* a key may hold ':' itself (a CPU title of softirqs), as in lkp */
		const char *colon = nl - p > 1 ? memchr(p + 1, ':', (size_t)(nl - p - 1)) : NULL;

		FUZZ_CHECK(*p == '#' || colon, "%s: stats line without a key: '%.*s'",
			   t->name, (int)(nl - p), p);
		p = nl + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct strbuf raw = STRBUF_INIT;
	const uint8_t *nl = memchr(data, '\n', size < 64 ? size : 64);
	struct strbuf out = STRBUF_INIT;
	struct parse_input in;
	struct target *t;
	char name[64];
	int ret;

	if (!nl)
		return -1;
	memcpy(name, data, (size_t)(nl - data));
	name[nl - data] = '\0';
	if (!(t = find_target(name)))
		return -1;
	t->runs++;
	fuzz_text(&raw, nl + 1, size - (size_t)(nl + 1 - data));
	parser_blank_nuls(&raw, "<fuzz>");      /* as parser_read_file does */
	in.buf = raw.buf;
	in.len = raw.len;
	in.name = "<fuzz>";
	in.result_root = NULL;
	if (t->parser)
		ret = t->parser->parse(&in, &out);
	else
		ret = monitor_parse(t->monitor, raw.buf, raw.len, in.name, &out);
	FUZZ_CHECK(ret == 0 || ret == -1, "%s: returned %d", t->name, ret);
	if (ret == 0)
		check_stats_lines(t, &out);
	strbuf_release(&out);
	return 0;
}
