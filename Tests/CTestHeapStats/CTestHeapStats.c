#include "CTestHeapStats.h"

#if defined(__linux__)
#include <malloc.h>  // defines __GLIBC__ (through features.h) on glibc systems
#endif

#if defined(__linux__) && defined(__GLIBC__)

size_t tracking_test_heap_bytes_in_use(void) {
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

#elif defined(__APPLE__)
#include <malloc/malloc.h>

size_t tracking_test_heap_bytes_in_use(void) {
  malloc_statistics_t stats;
  malloc_zone_statistics(NULL, &stats);
  return stats.size_in_use;
}

#else

size_t tracking_test_heap_bytes_in_use(void) { return 0; }

#endif
