// A stand-in for the CRT module on Windows (Swift's overlay of the Universal C
// Runtime, the module Foundation re-exports there), for type-checking the
// Foundation-free files that import it on their own (Scripts/check-apple-platforms.sh).
// It declares only what they call there: `errno` (Swift's overlay; swiftlang/swift
// stdlib/public/Platform/Platform.swift) and `strerror` (<string.h>). Windows has no
// `flock`: the files' lock and durable-save code is left out there.

/// Swift's overlay: `public var errno: Int32 { get set }`.
public var errno: Int32 {
  get { fatalError("stub") }
  set { fatalError("stub") }
}
/// <string.h>: `char *strerror(int errnum)`.
@discardableResult public func strerror(_ errnum: Int32) -> UnsafeMutablePointer<CChar>! { fatalError("stub") }
