#ifndef TCATRACE_ATOMICS_SHIMS_H
#define TCATRACE_ATOMICS_SHIMS_H

// Atomic operations on a word, for the platforms TCATrace declares: the standard library's
// `Atomic` (module Synchronization) is available from iOS 18 and macOS 15 only. Each is one
// compiler builtin, as the C11 atomics that Synchronization itself is built on.

#include <stdbool.h>
#include <stdint.h>

#include "TCATraceFlightShims.h"

static inline uintptr_t tcatrace_atomic_load_acquire(const uintptr_t *word) {
  return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

static inline uintptr_t tcatrace_atomic_load_relaxed(const uintptr_t *word) {
  return __atomic_load_n(word, __ATOMIC_RELAXED);
}

static inline void tcatrace_atomic_store_relaxed(uintptr_t *word, uintptr_t value) {
  __atomic_store_n(word, value, __ATOMIC_RELAXED);
}

/// Stores `desired` if the word holds `expected`; returns whether it did.
static inline bool tcatrace_atomic_compare_exchange(uintptr_t *word, uintptr_t expected, uintptr_t desired) {
  return __atomic_compare_exchange_n(word, &expected, desired, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

static inline void tcatrace_atomic_add_relaxed(uintptr_t *word, intptr_t delta) {
  __atomic_fetch_add(word, (uintptr_t)delta, __ATOMIC_RELAXED);
}

#endif
