// The one place the Tracking module calls the C library. Each system's branch is
// compiled on its own against that system's declarations: Darwin's by
// Scripts/check-apple-platforms.sh (against TestSupport/AppleStubs/Darwin), glibc's by
// the Linux build, musl's and the fallback by the same script (see README's
// "Not verified by CI" inventory). Darwin comes first so that the script's stub
// Darwin module is the one imported.
#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Writes `text` to standard error at once (unbuffered), where the C library is
/// available; elsewhere (Windows, WASI) prints it to standard output.
func writeToStandardError(_ text: String) {
  #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
    var bytes = Array(text.utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
  #else
    print(text, terminator: "")
  #endif
}
