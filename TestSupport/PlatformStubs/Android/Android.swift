// A stand-in for the Android module (Bionic, Android's C library, as Swift imports
// it), for type-checking the Foundation-free files that import it on their own
// (Scripts/check-apple-platforms.sh). It declares only what they call: Bionic's C
// declarations from the NDK headers (<fcntl.h>, <unistd.h>, <stdio.h>, <string.h>,
// <sys/file.h>, <errno.h>; Bionic annotates nullability, so `_Nonnull` pointers
// import as non-optional) and Swift's overlay wrappers (`open`, `errno`; swiftlang/
// swift stdlib/public/Platform/Platform.swift), for 64-bit Android. Swift lets a
// caller ignore a C function's result: hence `@discardableResult`.

/// <sys/types.h> (64-bit): `typedef unsigned int mode_t`.
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

/// <unistd.h>: `int close(int __fd)`.
@discardableResult public func close(_ fd: Int32) -> Int32 { fatalError("stub") }
/// <unistd.h>: `ssize_t write(int __fd, const void* _Nonnull __buf, size_t __count)`.
@discardableResult public func write(_ fd: Int32, _ buf: UnsafeRawPointer, _ count: Int) -> Int { fatalError("stub") }
/// <unistd.h>: `int fsync(int __fd)`.
@discardableResult public func fsync(_ fd: Int32) -> Int32 { fatalError("stub") }
/// <unistd.h>: `int unlink(const char* _Nonnull __path)`.
@discardableResult public func unlink(_ path: UnsafePointer<CChar>) -> Int32 { fatalError("stub") }
/// <stdio.h>: `int rename(const char* _Nonnull __old_path, const char* _Nonnull __new_path)`.
@discardableResult public func rename(_ old: UnsafePointer<CChar>, _ new: UnsafePointer<CChar>) -> Int32 { fatalError("stub") }
/// <string.h>: `char* _Nonnull strerror(int __errno_value)`.
@discardableResult public func strerror(_ errnum: Int32) -> UnsafeMutablePointer<CChar> { fatalError("stub") }
/// <sys/file.h>: `int flock(int __fd, int __op)`.
@discardableResult public func flock(_ fd: Int32, _ operation: Int32) -> Int32 { fatalError("stub") }
public var LOCK_EX: Int32 { 2 }

/// Swift's overlay: `public var errno: Int32 { get set }`.
public var errno: Int32 {
  get { fatalError("stub") }
  set { fatalError("stub") }
}
public var EINTR: Int32 { 4 }
public var EEXIST: Int32 { 17 }
