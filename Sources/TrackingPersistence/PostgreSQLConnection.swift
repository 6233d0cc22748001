// Built with the package trait `PostgreSQL` (which brings postgres-nio); without it, this file is empty.
#if PostgreSQL
  import Dispatch
  import Foundation
  import PostgresNIO

  /// The one connection of a ``PostgreSQLStorage``: made on first use, made again when
  /// it drops, and listening on the storage's channel while anyone observes changes.
  ///
  /// **Waiting.** Every ``withConnection(_:)`` has a deadline, `timeout` seconds after it
  /// starts: waiting for another caller's transaction, connecting, and each query of
  /// `body` all end by then (``StorageTimeout``). The server is also told to give up
  /// waiting for a row lock a little before (`lock_timeout`), so a lock held by another
  /// session fails the statement cleanly instead of costing the connection. Failures
  /// are described by ``PostgreSQLFailure``.
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
    /// Seconds a ``withConnection(_:)`` may take.
    let timeout: Double
    /// `host:port`, for messages.
    private let server: String
    private let prepare: @Sendable (BoundedConnection) throws -> Void
    private let state = Locked(State())
    private let transactionLock = NSLock()
    private let queue = DispatchQueue(label: "TrackingPersistence.postgresql-reconnect")

    init(
      configuration: PostgresConnection.Configuration, logger: Logger, channel: String, timeout: Double,
      prepare: @escaping @Sendable (BoundedConnection) throws -> Void
    ) {
      self.configuration = configuration
      self.logger = logger
      self.channel = channel
      self.timeout = timeout
      self.prepare = prepare
      server =
        configuration.host.map { "\($0):\(configuration.port ?? 5432)" } ?? configuration.unixSocketPath
        ?? "the PostgreSQL server"
    }

    /// Runs `body` with the live connection (connecting first if needed), alone, all
    /// within `timeout` seconds.
    /// - Throws: ``StorageTimeout``, ``PostgreSQLFailure``, or what `body` throws.
    func withConnection<Result>(_ body: (BoundedConnection) throws -> Result) throws -> Result {
      let deadline = NIODeadline.now() + .nanoseconds(Int64(timeout * 1e9))
      guard transactionLock.lock(before: Date(timeIntervalSinceNow: timeout)) else {
        throw StorageTimeout(waitingFor: "another transaction of this storage on \(server)", seconds: timeout)
      }
      defer { transactionLock.unlock() }
      do {
        return try body(try liveConnection(deadline: deadline))
      } catch {
        throw PostgreSQLFailure.describing(error, server: server, user: configuration.username, timeout: timeout)
      }
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
      if let connection { closeKeepingAlive(connection) }
    }

    /// The connection, connected (and listening, if anyone observes), bounded by
    /// `deadline`. Called with `transactionLock` held.
    private func liveConnection(deadline: NIODeadline) throws -> BoundedConnection {
      let (existing, id, isShutDown, isPrepared) = state.withLock { state in
        state.nextConnectionID += 1
        return (state.connection, state.nextConnectionID, state.isShutDown, state.isPrepared)
      }
      guard !isShutDown else { throw ShutDown() }
      if let existing, !existing.isClosed {
        listenIfObserved(existing)
        return bounded(existing, deadline)
      }
      let connecting = PostgresConnection.connect(
        on: PostgresConnection.defaultEventLoopGroup.any(), configuration: configuration, id: id, logger: logger)
      let connection: PostgresConnection
      do {
        connection = try blockingResult(
          of: connecting, closingOnTimeout: nil, deadline: deadline, waitingFor: "a connection to \(server)",
          timeout: timeout)
      } catch let expired as StorageTimeout {
        connecting.whenSuccess { closeKeepingAlive($0) }  // made too late: nobody uses it
        throw expired
      }
      do {
        // A row lock held by another session fails the statement a little before the
        // deadline (SQLSTATE 55P03), keeping the connection usable.
        let lockTimeout = max(1, Int(timeout * 800))
        try bounded(connection, deadline).query(PostgresQuery(unsafeSQL: "SET lock_timeout = \(lockTimeout)"))
        if !isPrepared { try prepare(bounded(connection, deadline)) }
      } catch {
        closeKeepingAlive(connection)
        throw error
      }
      state.withLock { state in
        state.connection = connection
        state.isPrepared = true
      }
      connection.closeFuture.whenComplete { [self] _ in lost(connection) }
      listenIfObserved(connection)
      return bounded(connection, deadline)
    }

    private func bounded(_ connection: PostgresConnection, _ deadline: NIODeadline) -> BoundedConnection {
      BoundedConnection(
        connection: connection, deadline: deadline, logger: logger, server: server, timeout: timeout)
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
        try withConnection { _ in }
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

  /// A connection and the deadline of the work it does for one
  /// ``PostgreSQLConnection/withConnection(_:)``.
  struct BoundedConnection {
    let connection: PostgresConnection
    let deadline: NIODeadline
    let logger: Logger
    let server: String
    let timeout: Double

    /// Runs `query` and waits for all its rows, until the deadline at most.
    @discardableResult
    func query(_ query: PostgresQuery) throws -> PostgresQueryResult {
      guard !connection.isClosed else {
        throw PostgreSQLFailure(kind: .connectionLost, message: "the connection to \(server) is closed")
      }
      return try blockingResult(
        of: connection.query(query, logger: logger), closingOnTimeout: connection, deadline: deadline,
        waitingFor: "an answer from \(server)", timeout: timeout)
    }
  }

  /// Waits for `future`, but not past `deadline`; then throws ``StorageTimeout`` and
  /// closes `connection` (a query without an answer leaves it unusable, and closing it
  /// makes it reconnect).
  ///
  /// A query written to a connection the server has just closed may never complete, so
  /// no wait here is unbounded.
  func blockingResult<Value: Sendable>(
    of future: EventLoopFuture<Value>, closingOnTimeout connection: PostgresConnection?, deadline: NIODeadline,
    waitingFor: String, timeout: Double
  ) throws -> Value {
    let bounded = future.eventLoop.makePromise(of: Value.self)
    future.cascade(to: bounded)
    let expired = StorageTimeout(waitingFor: waitingFor, seconds: timeout)
    let timer = future.eventLoop.scheduleTask(deadline: deadline) {
      bounded.fail(expired)  // ignored if the future completed first
      if let connection { closeKeepingAlive(connection) }
    }
    defer { timer.cancel() }
    return try bounded.futureResult.wait()
  }

  /// Closes `connection` without waiting, and holds it until the close completes.
  ///
  /// A close is asynchronous, and PostgresNIO requires a connection to be closed
  /// before it is deinitialized (an assertion, in debug builds): dropped at once, the
  /// last reference to a connection given up here (a failed setup, a connection made
  /// too late, a query past its deadline) could go while its channel is still open.
  func closeKeepingAlive(_ connection: PostgresConnection) {
    connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
  }
#endif
