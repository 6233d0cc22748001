#include "CCeiling.h"

_Thread_local void *ceiling_thread_state __attribute__((tls_model("initial-exec"))) = 0;

ceiling_lock ceiling_graph_lock = {0};
