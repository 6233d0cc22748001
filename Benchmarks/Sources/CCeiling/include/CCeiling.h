// The two primitives the ceiling study needs from C, built as the runtime builds its
// own (Sources/CTrackingSupport): a thread-local slot with the initial-exec model,
// and a lock whose uncontended path is one compare-and-swap and one atomic subtract.
#ifndef CCEILING_H
#define CCEILING_H

#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>

/// The calling thread's state of the study's graph (see ThreadState.swift).
extern _Thread_local void *_Nullable ceiling_thread_state
    __attribute__((tls_model("initial-exec")));

static inline void *_Nullable ceiling_thread_state_get(void) { return ceiling_thread_state; }
static inline void ceiling_thread_state_set(void *_Nullable state) { ceiling_thread_state = state; }

/// The graph lock. Contended, it yields the processor until it is free (the runtime's
/// lock waits on a futex instead; the uncontended path, the one measured, is the same).
typedef struct {
  _Atomic(int) state;
} ceiling_lock;

static inline void ceiling_lock_lock(ceiling_lock *_Nonnull l) {
  for (;;) {
    int expected = 0;
    if (__builtin_expect(atomic_compare_exchange_strong_explicit(
            &l->state, &expected, 1, memory_order_acquire, memory_order_relaxed), 1)) {
      return;
    }
    sched_yield();
  }
}

static inline void ceiling_lock_unlock(ceiling_lock *_Nonnull l) {
  atomic_fetch_sub_explicit(&l->state, 1, memory_order_release);
}

/// The one graph lock (zero-initialized: unlocked).
extern ceiling_lock ceiling_graph_lock;

static inline void ceiling_graph_enter(void) { ceiling_lock_lock(&ceiling_graph_lock); }
static inline void ceiling_graph_leave(void) { ceiling_lock_unlock(&ceiling_graph_lock); }

#endif
