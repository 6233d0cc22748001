// A stand-in for the Windows SDK's <windows.h>, for compiling CTrackingSupport's
// _WIN32 branch with clang on Linux (Scripts/check-apple-platforms.sh). Only what the
// C layer uses, as the SDK declares it (Microsoft's pages for synchapi.h and
// processthreadsapi.h: InitializeSRWLock, AcquireSRWLockExclusive,
// TryAcquireSRWLockExclusive, ReleaseSRWLockExclusive, GetCurrentThreadId).
#ifndef TRACKING_STUB_WINDOWS_H
#define TRACKING_STUB_WINDOWS_H

#include <stddef.h>

#define WINAPI __stdcall
typedef void VOID;
typedef void *PVOID;
typedef unsigned long DWORD;
typedef unsigned char BOOLEAN;

/// synchapi.h: SRWLOCK, a slim reader/writer lock (one pointer).
typedef struct _RTL_SRWLOCK {
  PVOID Ptr;
} RTL_SRWLOCK, *PRTL_SRWLOCK;
typedef RTL_SRWLOCK SRWLOCK, *PSRWLOCK;

/// synchapi.h: InitializeSRWLock.
VOID WINAPI InitializeSRWLock(PSRWLOCK SRWLock);
/// synchapi.h: AcquireSRWLockExclusive.
VOID WINAPI AcquireSRWLockExclusive(PSRWLOCK SRWLock);
/// synchapi.h: TryAcquireSRWLockExclusive.
BOOLEAN WINAPI TryAcquireSRWLockExclusive(PSRWLOCK SRWLock);
/// synchapi.h: ReleaseSRWLockExclusive.
VOID WINAPI ReleaseSRWLockExclusive(PSRWLOCK SRWLock);
/// processthreadsapi.h: GetCurrentThreadId.
DWORD WINAPI GetCurrentThreadId(VOID);

#endif
