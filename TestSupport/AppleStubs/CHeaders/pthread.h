// A stand-in for Apple's <pthread.h>, for compiling CTrackingSupport's __APPLE__
// branch with clang on Linux (Scripts/check-apple-platforms.sh). Only what the C layer
// uses, as the SDK header declares it (man pages pthread_self(3), pthread_main_np(3)).
#ifndef TRACKING_STUB_PTHREAD_H
#define TRACKING_STUB_PTHREAD_H

// The SDK's <pthread.h> includes <time.h>, which defines NULL; <stddef.h> (clang's
// own) stands in for that here.
#include <stddef.h>

/// <sys/_pthread/_pthread_t.h>: a pointer to an opaque structure.
typedef struct _opaque_pthread_t *pthread_t;

/// pthread_self(3): `pthread_t pthread_self(void)`.
pthread_t pthread_self(void);

/// pthread_main_np(3): 1 on the main thread, 0 elsewhere (Apple systems only).
int pthread_main_np(void);

#endif
