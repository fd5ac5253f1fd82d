# Sourced by .ci/run and .ci/load-check: runs a test command and watches its test process.
#
# A test process that uses no CPU time for $STALL_SECONDS is stalled: every thread's stack is
# printed to stderr (with gdb, or lldb, when there is one) and the run is stopped with status 75.
# A stall is a defect to find from those stacks, never a run to retry.

STALL_SECONDS=${STALL_SECONDS:-300}
TEST_PROCESS=${TEST_PROCESS:-TCATracePackageTests.xctest}

cpu_time() { # utime + stime of process $1, or nothing when it is gone
  awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || true
}

print_stacks() { # every thread's stack of process $1, to stderr
  if command -v gdb >/dev/null 2>&1; then
    timeout 120 gdb -p "$1" -batch -nx -ex "set pagination off" -ex "thread apply all bt" >&2 2>&1 || true
  elif command -v lldb >/dev/null 2>&1; then
    timeout 120 lldb -p "$1" --batch -o "thread backtrace all" >&2 2>&1 || true
  else
    echo "ci: neither gdb nor lldb is installed: no stacks" >&2
  fi
}

run_watched() { # runs "$@", stopping it with status 75 if its test process stalls
  "$@" &
  local run=$! last="" still=0
  while kill -0 "$run" 2>/dev/null; do
    sleep 10
    local pid
    pid=$(pgrep -f "$TEST_PROCESS" | head -n 1 || true)
    if [ -z "$pid" ]; then still=0; last=""; continue; fi
    local now
    now=$(cpu_time "$pid")
    if [ -n "$now" ] && [ "$now" = "$last" ]; then still=$((still + 10)); else still=0; fi
    last=$now
    if [ "$still" -ge "$STALL_SECONDS" ]; then
      echo "ci: the test process $pid used no CPU for ${STALL_SECONDS}s; its threads:" >&2
      print_stacks "$pid"
      echo "ci: stopping the stalled test process $pid" >&2
      pkill -9 -f "$TEST_PROCESS" || true
      wait "$run" || true
      return 75
    fi
  done
  wait "$run"
}
