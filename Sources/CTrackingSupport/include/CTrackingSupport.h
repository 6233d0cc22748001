// The few primitives the runtime needs below Swift: the current tracking scope of a
// thread, a small lock, and relaxed/acq-rel atomics. They are `static inline` so
// Swift inlines them at the call site; nothing here allocates.
#ifndef C_TRACKING_SUPPORT_H
#define C_TRACKING_SUPPORT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#if defined(__APPLE__)
#include <os/lock.h>
#elif defined(_WIN32)
#include <windows.h>
#elif defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#else
#include <pthread.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

// MARK: Thread-local scope

/// The innermost active tracking scope of the calling thread, or NULL.
/// Defined in the .c file; read through the inline accessors below.
extern _Thread_local void *_Nullable tracking_current_scope_storage
    __attribute__((tls_model("initial-exec")));

static inline __attribute__((always_inline)) void *_Nullable tracking_current_scope(void) {
  return tracking_current_scope_storage;
}

static inline __attribute__((always_inline)) void tracking_set_current_scope(void *_Nullable scope) {
  tracking_current_scope_storage = scope;
}

/// The value the scope slot holds while a region requires tracking but no scope is
/// active (see RequiredTracking.swift). Never dereferenced.
static inline __attribute__((always_inline)) void *_Nonnull tracking_required_marker(void) {
  return (void *)1;
}

// MARK: Atomics on a word

typedef struct { _Atomic(intptr_t) value; } tracking_atomic_word;

static inline void tracking_atomic_init(tracking_atomic_word *_Nonnull w, intptr_t v) {
  atomic_init(&w->value, v);
}
static inline intptr_t tracking_atomic_load_relaxed(tracking_atomic_word *_Nonnull w) {
  return atomic_load_explicit(&w->value, memory_order_relaxed);
}
static inline intptr_t tracking_atomic_load_acquire(tracking_atomic_word *_Nonnull w) {
  return atomic_load_explicit(&w->value, memory_order_acquire);
}
static inline void tracking_atomic_store_release(tracking_atomic_word *_Nonnull w, intptr_t v) {
  atomic_store_explicit(&w->value, v, memory_order_release);
}
static inline intptr_t tracking_atomic_fetch_add(tracking_atomic_word *_Nonnull w, intptr_t d) {
  return atomic_fetch_add_explicit(&w->value, d, memory_order_acq_rel);
}
/// Compare-and-swap; true when `expected` was found and replaced by `desired`.
static inline bool tracking_atomic_cas(tracking_atomic_word *_Nonnull w, intptr_t expected, intptr_t desired) {
  return atomic_compare_exchange_strong_explicit(&w->value, &expected, desired,
                                                 memory_order_acq_rel, memory_order_acquire);
}

// MARK: Interop switches

/// Bit 0: relay reads and writes to Apple's ObservationRegistrar.
/// Bit 1: make tracking scopes also observe Apple @Observable objects.
/// Reached through functions so Swift does not see a mutable global.
extern tracking_atomic_word tracking_interop_flags_storage;

static inline __attribute__((always_inline)) intptr_t tracking_interop_flags(void) {
  return atomic_load_explicit(&tracking_interop_flags_storage.value, memory_order_relaxed);
}
static inline void tracking_interop_set_flag(intptr_t bit, bool on) {
  if (on) {
    atomic_fetch_or_explicit(&tracking_interop_flags_storage.value, bit, memory_order_acq_rel);
  } else {
    atomic_fetch_and_explicit(&tracking_interop_flags_storage.value, ~bit, memory_order_acq_rel);
  }
}

// MARK: Lock

/// An unfair, non-recursive lock: os_unfair_lock on Apple systems, an SRW lock on
/// Windows, a 4-byte futex lock on Linux, a pthread mutex elsewhere.
///
/// The Linux lock is the classic three-state futex mutex (0 free, 1 held, 2 held
/// with waiters): an uncontended lock or unlock is one atomic instruction, and the
/// kernel is entered only when a thread has to wait.
typedef struct {
#if defined(__APPLE__)
  os_unfair_lock impl;
#elif defined(_WIN32)
  SRWLOCK impl;
#elif defined(__linux__)
  _Atomic(int) state;
#else
  pthread_mutex_t impl;
#endif
} tracking_lock;

static inline void tracking_lock_init(tracking_lock *_Nonnull l) {
#if defined(__APPLE__)
  l->impl = OS_UNFAIR_LOCK_INIT;
#elif defined(_WIN32)
  InitializeSRWLock(&l->impl);
#elif defined(__linux__)
  atomic_init(&l->state, 0);
#else
  pthread_mutex_init(&l->impl, NULL);
#endif
}
static inline void tracking_lock_destroy(tracking_lock *_Nonnull l) {
#if !defined(__APPLE__) && !defined(_WIN32) && !defined(__linux__)
  pthread_mutex_destroy(&l->impl);
#else
  (void)l;
#endif
}

#if defined(__linux__)
/// Out of line: waiting and waking are the rare, slow paths.
void tracking_lock_wait(tracking_lock *_Nonnull l);
void tracking_lock_wake(tracking_lock *_Nonnull l);
#endif

static inline void tracking_lock_lock(tracking_lock *_Nonnull l) {
#if defined(__APPLE__)
  os_unfair_lock_lock(&l->impl);
#elif defined(_WIN32)
  AcquireSRWLockExclusive(&l->impl);
#elif defined(__linux__)
  int expected = 0;
  if (__builtin_expect(atomic_compare_exchange_strong_explicit(
          &l->state, &expected, 1, memory_order_acquire, memory_order_relaxed), 1)) {
    return;
  }
  tracking_lock_wait(l);
#else
  pthread_mutex_lock(&l->impl);
#endif
}
static inline void tracking_lock_unlock(tracking_lock *_Nonnull l) {
#if defined(__APPLE__)
  os_unfair_lock_unlock(&l->impl);
#elif defined(_WIN32)
  ReleaseSRWLockExclusive(&l->impl);
#elif defined(__linux__)
  if (__builtin_expect(atomic_fetch_sub_explicit(&l->state, 1, memory_order_release) != 1, 0)) {
    tracking_lock_wake(l);
  }
#else
  pthread_mutex_unlock(&l->impl);
#endif
}

/// What a registrar keeps outside Swift's exclusivity checking: its lock, the mask
/// of properties that installed observers watch (read without the lock on the
/// mutation path), and the object relaying to Apple's registrar once there is one
/// (an unretained pointer, published once and read without the lock on every
/// relayed access; the registrar's state owns it).
typedef struct {
  tracking_atomic_word observedMask;
  tracking_atomic_word appleRelay;
  tracking_lock lock;
} tracking_registrar_sync;

#ifdef __cplusplus
}
#endif

#endif
