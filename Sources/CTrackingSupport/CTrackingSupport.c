#include "CTrackingSupport.h"

_Thread_local void *tracking_current_scope_storage = NULL;
_Thread_local void *tracking_current_batch_storage = NULL;
_Thread_local void *tracking_current_owner_storage = NULL;
_Thread_local int tracking_relaying_own_change_storage = 0;

tracking_atomic_word tracking_interop_flags_storage = { 0 };

tracking_atomic_word tracking_storage_serials = { 0 };
tracking_atomic_word tracking_install_orders = { 0 };
tracking_atomic_word tracking_spare_work_block = { 0 };

tracking_atomic_word tracking_spy_count_storage = { 0 };

tracking_atomic_word tracking_recording_count_storage = { 0 };

#if defined(__APPLE__) || defined(_WIN32) || defined(__linux__)
tracking_lock tracking_graph_lock_storage = { 0 };
#else
tracking_lock tracking_graph_lock_storage = { PTHREAD_MUTEX_INITIALIZER };
#endif

void *tracking_graph_spare_links_storage[TRACKING_GRAPH_SPARE_LINKS] = { NULL };
uint32_t tracking_graph_spare_link_count_storage = 0;
uint32_t tracking_graph_unsettled_runs_storage = 0;

#if defined(__linux__)
// Contended path of the three-state futex lock (0 free, 1 held, 2 held with waiters).
void tracking_lock_wait(tracking_lock *l) {
  // Announce a waiter, then sleep while the lock stays held; whoever takes the lock
  // from here on marks it 2 so that its unlock wakes the next waiter.
  int state = atomic_exchange_explicit(&l->state, 2, memory_order_acquire);
  while (state != 0) {
    syscall(SYS_futex, &l->state, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
    state = atomic_exchange_explicit(&l->state, 2, memory_order_acquire);
  }
}

void tracking_lock_wake(tracking_lock *l) {
  // The state was 2: there may be waiters. Free the lock and wake one of them.
  atomic_store_explicit(&l->state, 0, memory_order_release);
  syscall(SYS_futex, &l->state, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
#endif
