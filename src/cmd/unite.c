/* unite.c: `perfbot unite RUN_DIR...` (see result/unite.h). */
#include "cmd/cmd.h"
#include "result/unite.h"
#include "util/error.h"

int cmd_unite(int argc, char **argv)
{
	if (argc < 2)
		return cmd_usage(cmd_find("unite"), 0);
	for (int i = 1; i < argc; i++)
		if (argv[i][0] == '-')
			return cmd_usage(cmd_find("unite"), 0);
	xalloc_batch_mode();
	return unite_run_dirs(argv + 1, argc - 1) < 0 ? EXIT_ERROR : 0;
}
