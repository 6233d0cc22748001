// The process heap in use, for the soak tests (Tests/TrackingTests/Soak): a test-only
// target, not part of any product.
#ifndef C_TEST_HEAP_STATS_H
#define C_TEST_HEAP_STATS_H

#include <stddef.h>

/// Bytes the C allocator currently hands out, over all its arenas: glibc's
/// `mallinfo2()` (`uordblks + hblkhd`) on Linux, the default zone's `size_in_use` on
/// Apple systems; 0 where neither exists (the soak tests then skip the heap check).
size_t tracking_test_heap_bytes_in_use(void);

#endif
