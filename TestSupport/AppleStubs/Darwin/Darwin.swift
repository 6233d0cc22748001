// A stand-in for Apple's Darwin module (the C library as Swift imports it), for
// type-checking this package's Darwin-only code on Linux
// (Scripts/check-apple-platforms.sh). It declares only the C functions and constants
// the package's Darwin branches use, as Swift sees them on Apple systems: the C
// declaration from the man page named above each (Apple's man pages, `man 2 open`),
// the Swift overlay's wrappers where the C function is variadic (`open`; swiftlang/
// swift stdlib/public/Platform/Platform.swift) and the values of Apple's headers
// (<sys/fcntl.h>, <sys/errno.h>). Nothing here runs.
//
// Swift lets a caller ignore a C function's result, so every function here is
// `@discardableResult`.
//
// Where Darwin and glibc differ (`mode_t` is 16 bits here, 32 there; `O_EVTONLY`
// exists only here), the stub follows Darwin, so a branch that is wrong for Apple
// systems fails here too.

/// <sys/_types/_mode_t.h>: `typedef __uint16_t mode_t`.
public typealias mode_t = UInt16

// MARK: fcntl.h, open(2)

/// open(2) through Swift's overlay (the C function is variadic).
@discardableResult public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32 { fatalError("stub") }
/// open(2) through Swift's overlay, with a mode for `O_CREAT`.
@discardableResult public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t) -> Int32 { fatalError("stub") }

/// open(2): <sys/fcntl.h>.
public var O_RDONLY: Int32 { 0x0000 }
/// open(2): <sys/fcntl.h>.
public var O_WRONLY: Int32 { 0x0001 }
/// open(2): <sys/fcntl.h>.
public var O_RDWR: Int32 { 0x0002 }
/// open(2): <sys/fcntl.h>.
public var O_CREAT: Int32 { 0x0200 }
/// open(2): <sys/fcntl.h>.
public var O_EXCL: Int32 { 0x0800 }
/// open(2): <sys/fcntl.h>; "descriptor requested for event notifications only"
/// (Apple systems only).
public var O_EVTONLY: Int32 { 0x8000 }
/// open(2): <sys/fcntl.h>.
public var O_CLOEXEC: Int32 { 0x0100_0000 }

// MARK: unistd.h, stdio.h, string.h

/// close(2): `int close(int fildes)`.
@discardableResult public func close(_ fildes: Int32) -> Int32 { fatalError("stub") }
/// write(2): `ssize_t write(int fildes, const void *buf, size_t nbyte)`.
@discardableResult public func write(_ fildes: Int32, _ buf: UnsafeRawPointer!, _ nbyte: Int) -> Int { fatalError("stub") }
/// fsync(2): `int fsync(int fildes)`.
@discardableResult public func fsync(_ fildes: Int32) -> Int32 { fatalError("stub") }
/// unlink(2): `int unlink(const char *path)`.
@discardableResult public func unlink(_ path: UnsafePointer<CChar>!) -> Int32 { fatalError("stub") }
/// rename(2): `int rename(const char *old, const char *new)`.
@discardableResult public func rename(_ old: UnsafePointer<CChar>!, _ new: UnsafePointer<CChar>!) -> Int32 { fatalError("stub") }
/// strerror(3): `char *strerror(int errnum)`.
@discardableResult public func strerror(_ errnum: Int32) -> UnsafeMutablePointer<CChar>! { fatalError("stub") }

// MARK: sys/file.h, flock(2)

/// flock(2): `int flock(int fd, int operation)`.
@discardableResult public func flock(_ fd: Int32, _ operation: Int32) -> Int32 { fatalError("stub") }
/// flock(2): <sys/fcntl.h>, exclusive lock.
public var LOCK_EX: Int32 { 0x02 }

// MARK: errno.h

/// errno(3), through Swift's overlay (`public var errno: Int32 { get set }`).
public var errno: Int32 {
  get { fatalError("stub") }
  set { fatalError("stub") }
}
/// intro(2), <sys/errno.h>: interrupted function call.
public var EINTR: Int32 { 4 }
/// intro(2), <sys/errno.h>: file exists.
public var EEXIST: Int32 { 17 }
