// A stand-in for Apple's <os/lock.h>, for compiling CTrackingSupport's __APPLE__
// branch with clang on Linux (Scripts/check-apple-platforms.sh). Only what the C layer
// uses, as declared in the SDK header and documented on the Apple pages named above
// each ("os: os_unfair_lock" is https://developer.apple.com/documentation/os/os_unfair_lock).
#ifndef TRACKING_STUB_OS_LOCK_H
#define TRACKING_STUB_OS_LOCK_H

#include <stdbool.h>
#include <stdint.h>

/// os: os_unfair_lock_s / os_unfair_lock (macOS 10.12, iOS 10, tvOS 10, watchOS 3).
typedef struct os_unfair_lock_s {
  uint32_t _os_unfair_lock_opaque;
} os_unfair_lock, *os_unfair_lock_t;

/// os: OS_UNFAIR_LOCK_INIT.
#define OS_UNFAIR_LOCK_INIT ((os_unfair_lock){0})

/// os: os_unfair_lock_lock(_:).
void os_unfair_lock_lock(os_unfair_lock_t lock);

/// os: os_unfair_lock_unlock(_:).
void os_unfair_lock_unlock(os_unfair_lock_t lock);

/// os: os_unfair_lock_trylock(_:).
bool os_unfair_lock_trylock(os_unfair_lock_t lock);

#endif
