#!/bin/sh
# General guard: perf bench sched pipe and messaging, $REPEAT runs each.
# Nothing in the series should move these when no cgroup is tagged.
set -eu
loops=20000
groups=4
mloops=100
if [ "$QUICK" = 1 ]; then
	loops=2000
	groups=1
	mloops=10
fi
r=1
while [ $r -le "$REPEAT" ]; do
	# "  usecs/op  12.345" (perf bench sched pipe)
	us=$(perf bench sched pipe -l $loops 2>&1 | awk '/usecs\/op/ { print $1; exit }')
	[ -n "$us" ] || { echo "# perf bench sched pipe printed no usecs/op"; exit 1; }
	echo "SAMPLE,perf-bench-sched-pipe,usecs/op,$us"
	# "     Total time: 0.123 [sec]" (perf bench sched messaging)
	s=$(perf bench sched messaging -g $groups -l $mloops 2>&1 | awk '/Total time:/ { print $3; exit }')
	[ -n "$s" ] || { echo "# perf bench sched messaging printed no total time"; exit 1; }
	echo "SAMPLE,perf-bench-sched-messaging,sec,$s"
	r=$((r + 1))
done
