#!/bin/sh
# scripts/layers.sh: the include graph between src/ directories, failed on
# a cycle, on an include of a peer or of a layer above, on a directory in
# no layer; and the real tree passes it
. ./lib.sh

ROOT=$(cd ../.. && pwd)
LAYERS="$ROOT/scripts/layers.sh"

# inc FILE DIR/HEADER...: FILE (under src/) includes each header
inc() {
	f=src/$1
	shift
	mkdir -p "$(dirname "$f")"
	for h in "$@"; do
		printf "#include \"%s\"\n" "$h" >>"$f"
	done
}

test_expect_success 'edges are printed with their counts, downward ones pass' '
	inc cmd/run.c run/run.h util/strbuf.h util/xalloc.h &&
	inc cmd/a.h util/strbuf.h &&
	inc run/run.c run/run.h util/strbuf.h "util/x.h" &&
	mkdir -p src/util && : >src/util/strbuf.c &&
	sh "$LAYERS" src >out &&
	grep -q "^  cmd      -> run         1$" out &&
	grep -q "^  cmd      -> util        3$" out &&
	grep -q "^  run      -> util        2$" out &&
	! grep -q "run      -> run" out &&
	test $(grep -c -- " -> " out) = 3 &&
	sh "$LAYERS" -q src >quiet &&
	test ! -s quiet
'

test_expect_success 'a cycle is named, with the files making each edge' '
	inc job/a.c result/matrix.h &&
	inc result/b.c job/job.h &&
	mkdir -p src/util &&
	test_must_fail 1 sh "$LAYERS" -q src >out &&
	grep -q "^layers.sh: cycle: job -> result -> job$" out &&
	grep -q "^layers.sh: job includes result, a peer of its layer:$" out &&
	grep -q "^    src/job/a.c includes result/matrix.h$" out &&
	grep -q "^layers.sh: result includes job, a peer of its layer:$" out
'

test_expect_success 'a longer cycle through three layers' '
	inc watch/w.c run/run.h &&
	inc run/r.c util/u.h &&
	inc util/u.c watch/watch.h &&
	test_must_fail 1 sh "$LAYERS" -q src >out &&
	grep -q "^layers.sh: cycle: watch -> run -> util -> watch$" out &&
	grep -q "^layers.sh: util includes watch, a layer above it:$" out &&
	test $(grep -c "^layers.sh:" out) = 2
'

test_expect_success 'an include of a layer above fails, one of a layer below passes' '
	inc store/s.c job/job.h util/strbuf.h &&
	inc stats/t.c result/matrix.h &&
	inc job/j.c util/strbuf.h &&
	inc result/m.c util/strbuf.h &&
	mkdir -p src/util &&
	test_must_fail 1 sh "$LAYERS" -q src >out &&
	grep -q "^layers.sh: stats includes result, a layer above it:$" out &&
	grep -q "^    src/stats/t.c includes result/matrix.h$" out &&
	sh "$LAYERS" src >all || : &&
	grep -q "^  store    -> job         1$" all &&
	! grep -q "store includes" out &&
	test $(grep -c "^layers.sh:" out) = 1
'

test_expect_success 'a directory in no layer fails; includes of no directory are no edge' '
	inc gadget/g.c util/strbuf.h &&
	inc util/u.c "strbuf.h" "nosuchdir/x.h" &&
	test_must_fail 1 sh "$LAYERS" -q src >out &&
	grep -q "^layers.sh: src/gadget/ is in no layer" out &&
	sh "$LAYERS" src >all || : &&
	! grep -q nosuchdir all &&
	grep -q "^  gadget   -> util        1$" all
'

test_expect_success 'the tree itself has no cycle and no include upward' '
	sh "$LAYERS" "$ROOT/src" >out &&
	grep -q "^  cmd      -> util" out &&
	! grep -q "^layers.sh:" out
'

test_done
