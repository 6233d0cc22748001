#include "CTrackingSupport.h"

_Thread_local void *tracking_current_scope_storage = NULL;

tracking_atomic_word tracking_interop_flags_storage = { 0 };
