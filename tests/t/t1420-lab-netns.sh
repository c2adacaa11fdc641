#!/bin/sh
# lab mode over a network: two "boxes", each in its own network
# namespace, reach the server over TCP on a veth pair with password
# logins, and each runs a job of its tbox_group.
. ./lib.sh

# Names unique to this run: other tests may make namespaces at once.
NS1=pb$$a NS2=pb$$b
NET=10.$(( $$ % 200 + 20 ))
PORT=$(( 20000 + $$ % 20000 ))

netns_down() {
	ip netns del $NS1 2>/dev/null
	ip netns del $NS2 2>/dev/null
	ip link del pv$$a0 2>/dev/null
	ip link del pv$$b0 2>/dev/null
}

# box NS DEV N: namespace NS joined to this one by veth DEV0/DEV1, on
# $NET.N.0/24: this side .1, the box .2
box() {
	ip netns add $1 &&
	ip link add ${2}0 type veth peer name ${2}1 &&
	ip link set ${2}1 netns $1 &&
	ip addr add $NET.$3.1/24 dev ${2}0 && ip link set ${2}0 up &&
	ip -n $1 addr add $NET.$3.2/24 dev ${2}1 && ip -n $1 link set ${2}1 up &&
	ip -n $1 link set lo up
}

if [ "$(id -u)" != 0 ] || ! command -v ip >/dev/null || ! box $NS1 pv$$a 1 2>/dev/null; then
	netns_down
	test_required netns &&
		{ echo "not ok - 'ip netns' does not work here, but PERFBOT_REQUIRE wants netns"; exit 1; }
	echo "# skipped: network namespaces need root and a working 'ip netns' (iproute2)"
	test_done
	exit 0
fi
box $NS2 pv$$b 2 || { netns_down; echo "not ok - cannot make the second namespace"; exit 1; }

LAB_TCP="$NET.1.1,$NET.2.1 $PORT $NET.0.0/16"
LAB_EXIT_HOOK=netns_down
. ./lab-lib.sh

# tcp_url NET_N USER PASSWORD: the URL a box in $NET.N.0/24 uses
tcp_url() { echo "postgresql://$2:$3@$NET.$1.1:$PORT/net?connect_timeout=5"; }

test_expect_success 'two boxes in network namespaces run their jobs over TCP' '
	db=$(lab_db net) &&
	pg_sql "ALTER ROLE box1 PASSWORD '\''pw-one'\''; ALTER ROLE box2 PASSWORD '\''pw-two'\''" &&
	job j.yaml "echo score: 1" &&
	perfbot queue submit --db "$(url net sub)" -g brickland2 j.yaml >/dev/null &&
	perfbot queue submit --db "$(url net sub)" -g ivb44 j.yaml >/dev/null &&
	# a box reaches the server on its own link only
	test_must_fail 1 ip netns exec $NS1 "$PERFBOT" queue list --db "$(tcp_url 2 box1 pw-one)" 2>err0 &&
	grep -q "cannot connect to the database: .*Network is unreachable" err0 &&
	bg ip netns exec $NS1 "$PERFBOT" worker --db "$(tcp_url 1 box1 pw-one)" -g brickland2 \
		--dir w1 --poll 0.5 2>log1 && p1=$pid &&
	bg ip netns exec $NS2 "$PERFBOT" worker --db "$(tcp_url 2 box2 pw-two)" -g ivb44 \
		--dir w2 --poll 0.5 2>log2 && p2=$pid &&
	wait_sql net "SELECT count(*) FROM perfbot.queue WHERE state = '\''done'\''" 2 &&
	test "$(sql net "SELECT string_agg(q.tbox_group || '\'':'\'' || u.box, '\'','\'' ORDER BY q.id)
		FROM perfbot.queue q JOIN perfbot.upload u ON u.job_id = q.id")" = "brickland2:box1,ivb44:box2" &&
	# the boxes came over TCP, from their own addresses
	test "$(sql net "SELECT string_agg(DISTINCT usename || '\''@'\'' || host(client_addr), '\'','\''
		ORDER BY usename || '\''@'\'' || host(client_addr)) FROM pg_stat_activity
		WHERE usename IN ('\''box1'\'', '\''box2'\'')")" = "box1@$NET.1.2,box2@$NET.2.2" &&
	# a wrong password is refused
	test_must_fail 1 ip netns exec $NS1 "$PERFBOT" queue list --db "$(tcp_url 1 box1 wrong)" 2>err &&
	grep -q "password authentication failed for user \"box1\"" err &&
	kill -TERM $p1 $p2 && wait $p1 && wait $p2
'

test_done
