// A stand-in for the Musl module of the static Linux SDK (musl's C library as Swift
// imports it), for type-checking the Foundation-free files that import it on their
// own (Scripts/check-apple-platforms.sh). It declares only what they call: musl's C
// declarations (<fcntl.h>, <unistd.h>, <stdio.h>, <string.h>, <sys/file.h>,
// <errno.h>; musl has no nullability annotations, so pointers import as implicitly
// unwrapped optionals) and Swift's overlay wrappers (`open`, `errno`; swiftlang/swift
// stdlib/public/Platform/Platform.swift). Constants have musl's values for x86_64 and
// arm64. Swift lets a caller ignore a C function's result: hence `@discardableResult`.

/// <sys/types.h>: `typedef unsigned mode_t`.
public typealias mode_t = UInt32

/// open(2) through Swift's overlay.
@discardableResult public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32 { fatalError("stub") }
/// open(2) through Swift's overlay, with a mode.
@discardableResult public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t) -> Int32 { fatalError("stub") }
public var O_RDONLY: Int32 { 0o0 }
public var O_WRONLY: Int32 { 0o1 }
public var O_RDWR: Int32 { 0o2 }
public var O_CREAT: Int32 { 0o100 }
public var O_EXCL: Int32 { 0o200 }
public var O_CLOEXEC: Int32 { 0o2_000_000 }

/// <unistd.h>: `int close(int)`.
@discardableResult public func close(_ fd: Int32) -> Int32 { fatalError("stub") }
/// <unistd.h>: `ssize_t write(int, const void *, size_t)`.
@discardableResult public func write(_ fd: Int32, _ buf: UnsafeRawPointer!, _ count: Int) -> Int { fatalError("stub") }
/// <unistd.h>: `int fsync(int)`.
@discardableResult public func fsync(_ fd: Int32) -> Int32 { fatalError("stub") }
/// <unistd.h>: `int unlink(const char *)`.
@discardableResult public func unlink(_ path: UnsafePointer<CChar>!) -> Int32 { fatalError("stub") }
/// <stdio.h>: `int rename(const char *, const char *)`.
@discardableResult public func rename(_ old: UnsafePointer<CChar>!, _ new: UnsafePointer<CChar>!) -> Int32 { fatalError("stub") }
/// <string.h>: `char *strerror(int)`.
@discardableResult public func strerror(_ errnum: Int32) -> UnsafeMutablePointer<CChar>! { fatalError("stub") }
/// <sys/file.h>: `int flock(int, int)`.
@discardableResult public func flock(_ fd: Int32, _ operation: Int32) -> Int32 { fatalError("stub") }
public var LOCK_EX: Int32 { 2 }

/// Swift's overlay: `public var errno: Int32 { get set }`.
public var errno: Int32 {
  get { fatalError("stub") }
  set { fatalError("stub") }
}
public var EINTR: Int32 { 4 }
public var EEXIST: Int32 { 17 }
