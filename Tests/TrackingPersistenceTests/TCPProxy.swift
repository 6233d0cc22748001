#if os(Linux) && PostgreSQL
  import Foundation
  import Glibc

  /// A TCP proxy on loopback in front of the test server, which a test turns off (new
  /// connections are refused, open ones are cut: the server is "down") and on again,
  /// or makes a black hole (connections are accepted and never answered: the server
  /// "hangs"). The server itself is the one `.ci/run` starts.
  final class TCPProxy: @unchecked Sendable {
    enum Mode {
      case forwarding, blackHole
    }

    /// The port the proxy listens on (reserved at creation, listened on when started).
    let port: UInt16
    private let targetHost: String
    private let targetPort: UInt16
    private let lock = NSLock()
    private var listener: Int32 = -1
    private var open: Set<Int32> = []
    private var mode = Mode.forwarding

    /// A proxy to `host:port`, not yet listening: connections to ``port`` are refused.
    init(toHost host: String, port targetPort: UInt16) throws {
      targetHost = host
      self.targetPort = targetPort
      let probe = try Self.listeningSocket(port: 0)
      var address = sockaddr_in()
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(probe, $0, &length) }
      }
      port = UInt16(bigEndian: address.sin_port)
      close(probe)
    }

    /// A `postgres://` URL like `url`, through the proxy.
    func url(replacingIn url: String) -> String {
      var components = URLComponents(string: url)!
      components.host = "127.0.0.1"
      components.port = Int(port)
      return components.string!
    }

    /// Starts listening, in `mode`.
    func start(_ mode: Mode = .forwarding) throws {
      let socket = try Self.listeningSocket(port: port)
      lock.withLock {
        self.mode = mode
        listener = socket
      }
      Thread.detachNewThread { [self] in acceptLoop(socket) }
    }

    /// Stops listening and cuts every connection.
    func stop() {
      let (socket, connections) = lock.withLock { () -> (Int32, Set<Int32>) in
        defer {
          listener = -1
          open = []
        }
        return (listener, open)
      }
      if socket >= 0 {
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
      }
      for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
    }

    deinit { stop() }

    private func acceptLoop(_ socket: Int32) {
      while true {
        let client = accept(socket, nil, nil)
        guard client >= 0 else { return }  // stopped
        let mode = lock.withLock { () -> Mode? in
          guard listener == socket else { return nil }
          open.insert(client)
          return self.mode
        }
        guard let mode else {
          close(client)
          return
        }
        switch mode {
        case .blackHole:
          Thread.detachNewThread { [self] in drain(client) }
        case .forwarding:
          guard let server = connectToTarget() else {
            forget(client)
            continue
          }
          lock.withLock { _ = open.insert(server) }
          let pair = Pair(client, server)
          Thread.detachNewThread { [self] in pump(from: client, to: server, pair) }
          Thread.detachNewThread { [self] in pump(from: server, to: client, pair) }
        }
      }
    }

    private func drain(_ connection: Int32) {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while buffer.withUnsafeMutableBytes({ read(connection, $0.baseAddress, $0.count) }) > 0 {}
      lock.withLock { _ = open.remove(connection) }
      close(connection)
    }

    /// Two connections forwarded to each other: closed once both directions ended
    /// (before that, a number closed early could be reused by another connection).
    private final class Pair: @unchecked Sendable {
      let first: Int32
      let second: Int32
      private let lock = NSLock()
      private var ended = 0

      init(_ first: Int32, _ second: Int32) {
        self.first = first
        self.second = second
      }

      /// One direction ended; true for the second.
      func end() -> Bool {
        lock.withLock {
          ended += 1
          return ended == 2
        }
      }
    }

    private func pump(from source: Int32, to destination: Int32, _ pair: Pair) {
      var buffer = [UInt8](repeating: 0, count: 16 * 1024)
      pumping: while true {
        let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
        guard count > 0 else { break }
        var offset = 0
        while offset < count {
          let written = buffer.withUnsafeBytes {
            send(destination, $0.baseAddress! + offset, count - offset, Int32(MSG_NOSIGNAL))  // no SIGPIPE
          }
          guard written > 0 else { break pumping }
          offset += written
        }
      }
      shutdown(source, Int32(SHUT_RDWR))
      shutdown(destination, Int32(SHUT_RDWR))
      guard pair.end() else { return }
      lock.withLock {
        open.remove(pair.first)
        open.remove(pair.second)
      }
      close(pair.first)
      close(pair.second)
    }

    private func forget(_ connection: Int32) {
      lock.withLock { _ = open.remove(connection) }
      close(connection)
    }

    private func connectToTarget() -> Int32? {
      let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      guard socket >= 0 else { return nil }
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = targetPort.bigEndian
      inet_pton(AF_INET, targetHost, &address.sin_addr)
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard connected == 0 else {
        close(socket)
        return nil
      }
      return socket
    }

    private static func listeningSocket(port: UInt16) throws -> Int32 {
      let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      guard socket >= 0 else { throw POSIXError(.EMFILE) }
      var yes: Int32 = 1
      setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = port.bigEndian
      address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
      let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard bound == 0, listen(socket, 64) == 0 else {
        let code = errno
        close(socket)
        throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EADDRINUSE)
      }
      return socket
    }
  }
#endif
