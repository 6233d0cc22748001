#include "CHeapStats.h"

#if defined(__linux__)
#include <malloc.h>  // defines __GLIBC__ (through features.h) on glibc systems
#endif

#if defined(__linux__) && defined(__GLIBC__)

size_t heap_stats_bytes_in_use(void) {
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

size_t heap_stats_usable_size(const void *pointer) {
  return pointer ? malloc_usable_size((void *)pointer) : 0;
}

#elif defined(__APPLE__)
#include <malloc/malloc.h>

size_t heap_stats_bytes_in_use(void) {
  malloc_statistics_t stats;
  malloc_zone_statistics(NULL, &stats);
  return stats.size_in_use;
}

size_t heap_stats_usable_size(const void *pointer) {
  return pointer ? malloc_size(pointer) : 0;
}

#else
size_t heap_stats_bytes_in_use(void) { return 0; }
size_t heap_stats_usable_size(const void *pointer) { (void)pointer; return 0; }
#endif
