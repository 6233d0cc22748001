// Heap statistics for the byte-count benchmarks: how many bytes the C allocator
// currently hands out, chunk overhead included.
#ifndef C_HEAP_STATS_H
#define C_HEAP_STATS_H

#include <stddef.h>

/// Bytes in use in the process heap: glibc's mallinfo2().uordblks + hblkhd on Linux,
/// the default zone's size_in_use on Apple systems, 0 elsewhere.
size_t heap_stats_bytes_in_use(void);

/// malloc_usable_size / malloc_size of one allocation (0 where unknown).
size_t heap_stats_usable_size(const void *_Nullable pointer);

#endif
