#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether this test process runs under ThreadSanitizer (`swift test --sanitize=thread`):
/// its runtime, linked into the process, defines `__tsan_init`.
///
/// The single-threaded figure checks of the reactivity suite are skipped there: they
/// race with nothing, ThreadSanitizer makes them tens of times slower (minutes each on
/// two cores), and while they run they hold the threads that the other tests' tasks
/// need. The release benchmark `reactivity --quick` checks the same figures in CI.
let isRunningUnderThreadSanitizer: Bool = {
  #if canImport(Glibc) || canImport(Darwin)
    guard let program = dlopen(nil, RTLD_NOW) else { return false }
    defer { dlclose(program) }
    return dlsym(program, "__tsan_init") != nil
  #else
    return false
  #endif
}()
