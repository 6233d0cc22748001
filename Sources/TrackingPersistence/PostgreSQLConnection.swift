// Built with the package trait `PostgreSQL` (which brings postgres-nio); without it, this file is empty.
#if PostgreSQL
  import Dispatch
  import Foundation
  import PostgresNIO

  /// The one connection of a ``PostgreSQLStorage``: made on first use, made again when
  /// it drops, and listening on the storage's channel while anyone observes changes.
  ///
  /// **Concurrency.** `transactionLock` is held for a whole ``withConnection(_:)`` (so
  /// one transaction at a time runs on the connection, and only one caller connects);
  /// `state` guards the rest and is never held across input or output. Connecting and
  /// queries block the calling thread (never an event loop's: the close callback only
  /// schedules work on `queue`). Listening runs in a task per connection, which ends
  /// when the connection closes.
  final class PostgreSQLConnection: Sendable {
    private struct State {
      var connection: PostgresConnection?
      /// The connection the current listening task listens on.
      var listeningOn: ObjectIdentifier?
      var observers: [Int: @Sendable (_ payload: String?) -> Void] = [:]
      var nextObserver = 0
      var nextConnectionID = 0
      var reconnectScheduled = false
      var isShutDown = false
      /// Whether `prepare` succeeded once (it need not run again for a new connection).
      var isPrepared = false
    }

    /// The storage was closed.
    struct ShutDown: Error, CustomStringConvertible {
      var description: String { "the PostgreSQL storage was closed" }
    }

    private let configuration: PostgresConnection.Configuration
    private let logger: Logger
    private let channel: String
    private let prepare: @Sendable (PostgresConnection) throws -> Void
    private let state = Locked(State())
    private let transactionLock = NSLock()
    private let queue = DispatchQueue(label: "TrackingPersistence.postgresql-reconnect")

    init(
      configuration: PostgresConnection.Configuration, logger: Logger, channel: String,
      prepare: @escaping @Sendable (PostgresConnection) throws -> Void
    ) {
      self.configuration = configuration
      self.logger = logger
      self.channel = channel
      self.prepare = prepare
    }

    /// Runs `body` with the live connection (connecting first if needed), alone.
    func withConnection<Result>(_ body: (PostgresConnection) throws -> Result) throws -> Result {
      transactionLock.lock()
      defer { transactionLock.unlock() }
      return try body(try liveConnection())
    }

    /// Adds a change observer; `onPayload` gets each notification's payload, and `nil`
    /// whenever listening (re)starts. Starts listening (in the background) if needed.
    func addObserver(_ onPayload: @escaping @Sendable (String?) -> Void) -> Int {
      let id = state.withLock { state in
        state.nextObserver += 1
        state.observers[state.nextObserver] = onPayload
        return state.nextObserver
      }
      queue.async { [self] in reconnect(backoff: 0.05) }
      return id
    }

    func removeObserver(_ id: Int) {
      state.withLock { _ = $0.observers.removeValue(forKey: id) }
    }

    /// Closes the connection; nothing connects again.
    func shutDown() {
      let connection = state.withLock { state -> PostgresConnection? in
        state.isShutDown = true
        state.observers = [:]
        return state.connection
      }
      connection?.close().whenComplete { _ in }
    }

    /// The connection, connected (and listening, if anyone observes). Called with
    /// `transactionLock` held.
    private func liveConnection() throws -> PostgresConnection {
      let (existing, id, isShutDown, isPrepared) = state.withLock { state in
        state.nextConnectionID += 1
        return (state.connection, state.nextConnectionID, state.isShutDown, state.isPrepared)
      }
      guard !isShutDown else { throw ShutDown() }
      if let existing, !existing.isClosed {
        listenIfObserved(existing)
        return existing
      }
      let connection = try blockingResult(
        of: PostgresConnection.connect(
          on: PostgresConnection.defaultEventLoopGroup.any(), configuration: configuration, id: id, logger: logger),
        closingOnTimeout: nil)
      if !isPrepared {
        do {
          try prepare(connection)
        } catch {
          connection.close().whenComplete { _ in }
          throw error
        }
      }
      state.withLock { state in
        state.connection = connection
        state.isPrepared = true
      }
      connection.closeFuture.whenComplete { [self] _ in lost(connection) }
      listenIfObserved(connection)
      return connection
    }

    /// Starts a listening task on `connection` unless one runs or nobody observes.
    private func listenIfObserved(_ connection: PostgresConnection) {
      let start = state.withLock { state -> Bool in
        guard !state.observers.isEmpty, state.listeningOn != ObjectIdentifier(connection) else { return false }
        state.listeningOn = ObjectIdentifier(connection)
        return true
      }
      guard start else { return }
      let channel = channel
      Task { [self] in
        do {
          try await connection.listen(on: channel) { notifications in
            deliver(nil)  // listening: whatever happened before is read again
            for try await notification in notifications { deliver(notification.payload) }
          }
        } catch {
          // The connection closed (its close callback reconnects) or `LISTEN` failed.
          logger.debug("listening ended: \(error)")
        }
        let stillCurrent = state.withLock { state -> Bool in
          guard state.listeningOn == ObjectIdentifier(connection) else { return false }
          state.listeningOn = nil
          return true
        }
        if stillCurrent { queue.async { [self] in reconnect(backoff: 0.05) } }
      }
    }

    private func deliver(_ payload: String?) {
      for observer in state.withLock({ Array($0.observers.values) }) { observer(payload) }
    }

    /// The close callback (on an event loop): forget the connection, reconnect later.
    private func lost(_ connection: PostgresConnection) {
      let reconnect = state.withLock { state -> Bool in
        if state.connection === connection { state.connection = nil }
        if state.listeningOn == ObjectIdentifier(connection) { state.listeningOn = nil }
        return !state.observers.isEmpty && !state.isShutDown
      }
      if reconnect { queue.async { [self] in self.reconnect(backoff: 0.05) } }
    }

    /// Connects (and listens) if anyone observes; on failure tries again after
    /// `backoff` seconds, doubling up to one second. Runs on `queue`.
    private func reconnect(backoff: Double) {
      let go = state.withLock { state -> Bool in
        guard !state.observers.isEmpty, !state.isShutDown, !state.reconnectScheduled else { return false }
        return true
      }
      guard go else { return }
      do {
        _ = try withConnection { $0 }
      } catch {
        logger.debug("reconnecting failed: \(error)")
        state.withLock { $0.reconnectScheduled = true }
        queue.asyncAfter(deadline: .now() + backoff) { [self] in
          state.withLock { $0.reconnectScheduled = false }
          reconnect(backoff: min(backoff * 2, 1))
        }
      }
    }
  }

  /// How long a round trip may take before the connection is given up.
  let postgreSQLTimeout = TimeAmount.seconds(5)

  /// The query or connection timed out.
  struct PostgreSQLTimeout: Error, CustomStringConvertible {
    var description: String { "no answer from the PostgreSQL server within \(postgreSQLTimeout.nanoseconds / 1_000_000_000) s" }
  }

  /// The connection was closed before a query could be sent.
  struct PostgreSQLConnectionClosed: Error, CustomStringConvertible {
    var description: String { "the connection to the PostgreSQL server is closed" }
  }

  /// Waits for `future`, but at most ``postgreSQLTimeout``; then closes `connection`
  /// (a query without an answer leaves it unusable, and closing it makes it reconnect).
  ///
  /// A query written to a connection the server has just closed may never complete, so
  /// no wait here is unbounded.
  func blockingResult<Value: Sendable>(
    of future: EventLoopFuture<Value>, closingOnTimeout connection: PostgresConnection?
  ) throws -> Value {
    let bounded = future.eventLoop.makePromise(of: Value.self)
    future.cascade(to: bounded)
    let timeout = future.eventLoop.scheduleTask(in: postgreSQLTimeout) {
      bounded.fail(PostgreSQLTimeout())  // ignored if the future completed first
      connection?.close().whenComplete { _ in }
    }
    defer { timeout.cancel() }
    return try bounded.futureResult.wait()
  }

  extension PostgresConnection {
    /// Runs `query` and waits for all its rows, at most ``postgreSQLTimeout``.
    @discardableResult
    func blockingQuery(_ query: PostgresQuery, logger: Logger) throws -> PostgresQueryResult {
      guard !isClosed else { throw PostgreSQLConnectionClosed() }
      return try blockingResult(of: self.query(query, logger: logger), closingOnTimeout: self)
    }
  }
#endif
