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
#endif
#if !defined(_WIN32)
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

/// The owner of what the calling thread starts now (a reaction's run, or a
/// `TrackingScope`'s `run`), or NULL (see LifetimeOwner.swift). Initial-exec, like the
/// scope slot.
extern _Thread_local void *_Nullable tracking_current_owner_storage
    __attribute__((tls_model("initial-exec")));

static inline __attribute__((always_inline)) void *_Nullable tracking_current_owner(void) {
  return tracking_current_owner_storage;
}

static inline __attribute__((always_inline)) void tracking_set_current_owner(void *_Nullable owner) {
  tracking_current_owner_storage = owner;
}

/// Non-zero while the calling thread relays a will-set of one of our own objects to
/// Apple's registrar (see TrackingInterop.swift): Apple's `onChange` callbacks that run
/// then were fired by our object, not by an Apple one.
extern _Thread_local int tracking_relaying_own_change_storage
    __attribute__((tls_model("initial-exec")));

static inline __attribute__((always_inline)) int tracking_relaying_own_change(void) {
  return tracking_relaying_own_change_storage;
}

static inline __attribute__((always_inline)) void tracking_set_relaying_own_change(int value) {
  tracking_relaying_own_change_storage = value;
}

/// The calling thread's batch of deferred did-set notifications, or NULL
/// (see NotificationBatch.swift). Initial-exec, like the scope slot.
extern _Thread_local void *_Nullable tracking_current_batch_storage
    __attribute__((tls_model("initial-exec")));

static inline __attribute__((always_inline)) void *_Nullable tracking_current_batch(void) {
  return tracking_current_batch_storage;
}

static inline __attribute__((always_inline)) void tracking_set_current_batch(void *_Nullable batch) {
  tracking_current_batch_storage = batch;
}

/// The value the scope slot holds while a region requires tracking but no scope is
/// active (see RequiredTracking.swift). Never dereferenced.
static inline __attribute__((always_inline)) void *_Nonnull tracking_required_marker(void) {
  return (void *)1;
}

/// An identifier of the calling thread, equal only for the same live thread; never 0
/// (0 stands for no thread). On Linux, the thread pointer: the address of the thread's
/// control block, which glibc's `pthread_self()` returns too on x86-64 (on AArch64 it
/// points a fixed distance past it), read with one instruction instead of a call
/// through the PLT — a run asks for it several times.
static inline uintptr_t tracking_current_thread(void) {
#if defined(_WIN32)
  return (uintptr_t)GetCurrentThreadId();
#elif defined(__linux__) && defined(__has_builtin)
#if __has_builtin(__builtin_thread_pointer)
  return (uintptr_t)__builtin_thread_pointer();
#else
  return (uintptr_t)pthread_self();
#endif
#else
  return (uintptr_t)pthread_self();
#endif
}

/// The concurrency runtime's check that the calling code runs on the serial executor
/// `(identity, implementation)` (Swift's `UnownedSerialExecutor`, two words). The
/// standard library keeps it internal, so it is declared here with Swift's calling
/// convention. Flags 0 ask it never to trap (the older entry point without flags may
/// trap for the main queue instead of answering). Weak: runtimes before Swift 6.2 (Apple
/// OSes before 26) do not have it.
extern bool swift_task_isCurrentExecutorWithFlags(const void *_Nullable identity, uintptr_t implementation,
                                                  uint64_t flags) __attribute__((swiftcall)) __attribute__((weak));

/// 1 if the calling code runs on the executor, 0 if not, -1 if the runtime cannot say.
static inline int tracking_is_current_executor(const void *_Nullable identity, uintptr_t implementation) {
  if (!swift_task_isCurrentExecutorWithFlags) return -1;
  return swift_task_isCurrentExecutorWithFlags(identity, implementation, 0) ? 1 : 0;
}

/// Whether the calling thread is the process's main thread, where the runtime can
/// tell cheaply (Apple systems); -1 elsewhere.
static inline int tracking_is_main_thread(void) {
#if defined(__APPLE__)
  return pthread_main_np();
#else
  return -1;
#endif
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
/// Sequentially consistent forms, for the two places that need a store-load order
/// (a write's change epoch against an install's observed mask; see RegistrarStorage).
static inline intptr_t tracking_atomic_fetch_add_seq_cst(tracking_atomic_word *_Nonnull w, intptr_t d) {
  return atomic_fetch_add_explicit(&w->value, d, memory_order_seq_cst);
}
static inline intptr_t tracking_atomic_load_seq_cst(tracking_atomic_word *_Nonnull w) {
  return atomic_load_explicit(&w->value, memory_order_seq_cst);
}
static inline void tracking_atomic_fence_seq_cst(void) {
  atomic_thread_fence(memory_order_seq_cst);
}
/// Sets `bits` in the word; relaxed (see RegistrarStorage for why that is enough).
static inline void tracking_atomic_or_relaxed(tracking_atomic_word *_Nonnull w, intptr_t bits) {
  atomic_fetch_or_explicit(&w->value, bits, memory_order_relaxed);
}
static inline void tracking_atomic_store_relaxed(tracking_atomic_word *_Nonnull w, intptr_t v) {
  atomic_store_explicit(&w->value, v, memory_order_relaxed);
}
/// Compare-and-swap; true when `expected` was found and replaced by `desired`.
static inline bool tracking_atomic_cas(tracking_atomic_word *_Nonnull w, intptr_t expected, intptr_t desired) {
  return atomic_compare_exchange_strong_explicit(&w->value, &expected, desired,
                                                 memory_order_acq_rel, memory_order_acquire);
}

/// The next serial number for a registrar's storage (1, 2, …; relaxed: only
/// uniqueness matters).
extern tracking_atomic_word tracking_storage_serials;

static inline uint64_t tracking_next_storage_serial(void) {
  return (uint64_t)atomic_fetch_add_explicit(&tracking_storage_serials.value, 1, memory_order_relaxed) + 1;
}

/// The next installation number (1, 2, …; relaxed): one for each installed one-shot
/// observer and each link of a node to a tracked property's source, so that what
/// watches a property is told in the order it was installed (RegistrarWrites.swift).
extern tracking_atomic_word tracking_install_orders;

static inline uint64_t tracking_next_install_order(void) {
  return (uint64_t)atomic_fetch_add_explicit(&tracking_install_orders.value, 1, memory_order_relaxed) + 1;
}

/// One spare block of memory for the lists of a walk's work in the reactive graph
/// (GraphWork in Graph.swift): a walk that needs lists takes it, and the work gives it
/// back when it is done, so that most such walks neither allocate nor free. 0 when no
/// block is spare. One word for the whole process: a block taken by one thread is not
/// there for another, which then allocates.
extern tracking_atomic_word tracking_spare_work_block;

/// Takes the spare block, if there is one (else returns NULL).
static inline void *_Nullable tracking_take_spare_work_block(void) {
  return (void *)atomic_exchange_explicit(&tracking_spare_work_block.value, 0, memory_order_acquire);
}

/// Makes `block` the spare one; returns false when another is spare already (the
/// caller frees `block` then).
static inline bool tracking_give_spare_work_block(void *_Nonnull block) {
  intptr_t expected = 0;
  return atomic_compare_exchange_strong_explicit(&tracking_spare_work_block.value, &expected,
                                                 (intptr_t)block, memory_order_release, memory_order_relaxed);
}

/// How many spies are registered (TrackingSpy.swift); read on the notification path.
/// Reached through functions so Swift does not see a mutable global.
/// How many leak checks are recording (see LifetimeRecorder.swift); relaxed, like the
/// spy count: starting a node reads it once.
extern tracking_atomic_word tracking_recording_count_storage;

static inline __attribute__((always_inline)) intptr_t tracking_recording_count(void) {
  return atomic_load_explicit(&tracking_recording_count_storage.value, memory_order_relaxed);
}
static inline void tracking_set_recording_count(intptr_t count) {
  atomic_store_explicit(&tracking_recording_count_storage.value, count, memory_order_relaxed);
}

extern tracking_atomic_word tracking_spy_count_storage;

static inline __attribute__((always_inline)) intptr_t tracking_spy_count(void) {
  return atomic_load_explicit(&tracking_spy_count_storage.value, memory_order_relaxed);
}
static inline void tracking_set_spy_count(intptr_t count) {
  atomic_store_explicit(&tracking_spy_count_storage.value, count, memory_order_relaxed);
}

// MARK: Interop switches

/// Bit 0: relay reads and writes to Apple's ObservationRegistrar.
/// Bit 1: make tracking scopes also observe Apple @Observable objects.
/// Reached through functions so Swift does not see a mutable global.
extern tracking_atomic_word tracking_interop_flags_storage;

static inline __attribute__((always_inline)) intptr_t tracking_interop_flags(void) {
  return atomic_load_explicit(&tracking_interop_flags_storage.value, memory_order_relaxed);
}
static inline bool tracking_interop_cas_flags(intptr_t expected, intptr_t desired) {
  return atomic_compare_exchange_strong_explicit(&tracking_interop_flags_storage.value, &expected, desired,
                                                 memory_order_acq_rel, memory_order_acquire);
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
  // A pointer on FreeBSD and OpenBSD, a structure elsewhere: no nullability can be
  // written for it, so clang's warning that one is missing is silenced for this field.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-completeness"
  pthread_mutex_t impl;
#pragma clang diagnostic pop
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
/// Takes the lock if it is free, without waiting; returns whether it did.
static inline bool tracking_lock_trylock(tracking_lock *_Nonnull l) {
#if defined(__APPLE__)
  return os_unfair_lock_trylock(&l->impl);
#elif defined(_WIN32)
  return TryAcquireSRWLockExclusive(&l->impl) != 0;
#elif defined(__linux__)
  int expected = 0;
  return atomic_compare_exchange_strong_explicit(&l->state, &expected, 1, memory_order_acquire, memory_order_relaxed);
#else
  return pthread_mutex_trylock(&l->impl) == 0;
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

/// The reactive graph's lock (see Graph.swift): one for every computation's flags,
/// versions and links. A C global, so that taking it checks no one-time initialization.
extern tracking_lock tracking_graph_lock_storage;

static inline void tracking_graph_enter(void) { tracking_lock_lock(&tracking_graph_lock_storage); }
static inline void tracking_graph_leave(void) { tracking_lock_unlock(&tracking_graph_lock_storage); }

/// Up to `TRACKING_GRAPH_SPARE_LINKS` links' memory kept for the next links made
/// (GraphLinks.swift): a run that reads one value instead of another makes a link and
/// frees one (two when the value it stops reading retires and the other links its
/// input again), and then reuses the memory rather than allocate and free. Read and
/// written only with the graph lock held.
#define TRACKING_GRAPH_SPARE_LINKS 4
extern void *_Nullable tracking_graph_spare_links_storage[TRACKING_GRAPH_SPARE_LINKS];
extern uint32_t tracking_graph_spare_link_count_storage;

static inline void *_Nullable tracking_graph_take_spare_link(void) {
  if (tracking_graph_spare_link_count_storage == 0) return NULL;
  tracking_graph_spare_link_count_storage -= 1;
  return tracking_graph_spare_links_storage[tracking_graph_spare_link_count_storage];
}

/// Keeps `link` as a spare one; returns false when there are as many as are kept
/// already (the caller frees `link` then).
static inline bool tracking_graph_keep_spare_link(void *_Nonnull link) {
  if (tracking_graph_spare_link_count_storage == TRACKING_GRAPH_SPARE_LINKS) return false;
  tracking_graph_spare_links_storage[tracking_graph_spare_link_count_storage] = link;
  tracking_graph_spare_link_count_storage += 1;
  return true;
}

/// The runs under way (or just ended) that may have ignored, as their own, a change of
/// a computation they read, until their inputs are brought up to date (Propagation.swift,
/// "Passing through stale values"): while there are any, a change passes on through
/// stale computations. Read and written only with the graph lock held.
extern uint32_t tracking_graph_unsettled_runs_storage;

static inline uint32_t tracking_graph_unsettled_runs(void) { return tracking_graph_unsettled_runs_storage; }
static inline void tracking_graph_add_unsettled_run(void) { tracking_graph_unsettled_runs_storage += 1; }
static inline void tracking_graph_remove_unsettled_run(void) { tracking_graph_unsettled_runs_storage -= 1; }

/// What a registrar keeps outside Swift's exclusivity checking (RegistrarStorage.swift
/// documents each word and its memory order):
/// - `readMask`: the properties ever read inside a tracking scope (only grows); a write
///   of any other property returns after loading this one word;
/// - `observedMask`: the properties that installed observers watch (under the lock);
/// - `changeEpoch`: counts changes of read properties, so that an install can tell
///   whether another thread changed something after the scope read it;
/// - `appleRelay`: the object relaying to Apple's registrar once there is one (a
///   retained pointer, published once and released when the storage goes);
/// - the lock;
/// - `willSetMask`: the properties that installed observers hearing will-sets watch,
///   in 32 bits (bit 31 stands for every property numbered 31 or more), so a write
///   watched only by did-set observers skips the will-set pass. It sits in the
///   padding after the 4-byte lock, so the storage does not grow.
typedef struct {
  tracking_atomic_word readMask;
  tracking_atomic_word observedMask;
  tracking_atomic_word changeEpoch;
  tracking_atomic_word appleRelay;
  tracking_lock lock;
  _Atomic(int32_t) willSetMask;
} tracking_registrar_sync;

static inline void tracking_will_set_mask_init(tracking_registrar_sync *_Nonnull s) {
  atomic_init(&s->willSetMask, 0);
}
static inline int32_t tracking_will_set_mask_load(tracking_registrar_sync *_Nonnull s) {
  return atomic_load_explicit(&s->willSetMask, memory_order_relaxed);
}
static inline void tracking_will_set_mask_store(tracking_registrar_sync *_Nonnull s, int32_t mask) {
  atomic_store_explicit(&s->willSetMask, mask, memory_order_relaxed);
}

#ifdef __cplusplus
}
#endif

#endif
