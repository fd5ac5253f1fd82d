#ifndef TCATRACE_FLIGHT_SHIMS_H
#define TCATRACE_FLIGHT_SHIMS_H

// The flight journal's memory (see `FlightJournal` in TCATraceFile): a file mapped shared, so
// that what the store's thread writes into it is in the file when the process dies, without a
// system call per action. POSIX calls, the same on Darwin and Linux, in C: Swift does not
// import `MAP_FAILED` on Linux.

#include <stddef.h>
#include <stdint.h>

/// Creates the file at `path` (mode 0644), which must not exist, and writes `size` bytes of
/// zeros into it, so that the file system has found their blocks; returns its descriptor, or
/// -1, with `errno` set, when it cannot (and leaves no file).
int tcatrace_flight_create(const char *path, size_t size);

/// Maps the `size` bytes of the file `fd` shared, and closes `fd`; returns NULL, with `errno`
/// set, when it cannot.
void *tcatrace_flight_map(int fd, size_t size);

/// Unmaps what `tcatrace_flight_map` mapped.
void tcatrace_flight_unmap(void *address, size_t size);

/// Stores `value` so that every store before it is seen before it: an entry's bytes before the
/// word that says it is whole.
static inline void tcatrace_atomic_store_release(uintptr_t *word, uintptr_t value) {
  __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

/// Keeps the compiler from moving stores across it: a process that ends on this thread (a
/// crash, a signal) sees them in the order written.
static inline void tcatrace_signal_fence(void) {
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

#endif
