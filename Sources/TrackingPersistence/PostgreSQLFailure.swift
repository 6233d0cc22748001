// Built with the package trait `PostgreSQL` (which brings postgres-nio); without it, this file is empty.
#if PostgreSQL
  import Foundation
  import PostgresNIO

  /// What went wrong talking to the PostgreSQL server, in words that say what failed:
  /// the connection was refused, the login was refused, the connection was lost, or the
  /// server answered with an error (with its SQLSTATE code).
  ///
  /// A wait that ran out is a ``StorageTimeout`` instead (a server that doesn't answer,
  /// a row lock held by another session).
  public struct PostgreSQLFailure: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it is.
    public enum Kind: Sendable, Equatable {
      /// Nothing accepted the connection (no server at the address, or it is down).
      case connectionRefused
      /// The server could not be reached or the connection could not be made (host
      /// unknown or unreachable, TLS failed).
      case connectionFailed
      /// The server refused the login (SQLSTATE class 28: a wrong password, a role that
      /// may not log in; or an authentication method the client can't do).
      case authenticationFailed
      /// The connection closed before an answer came (the server restarted, a network
      /// failure, the session was terminated).
      case connectionLost
      /// The server is up but not taking this work now: starting up or shutting down,
      /// out of connections (SQLSTATE 57P01–57P03, 53300, class 08).
      case serverUnavailable
      /// The server answered the statement with an error (see ``sqlState``).
      case serverError
      /// Anything else the client reported.
      case other
    }

    /// What kind of failure it is.
    public let kind: Kind
    /// The server's SQLSTATE code, when the server answered with an error.
    public let sqlState: String?
    /// What failed, in words.
    public let message: String
    /// What the client library reported, for details.
    public let underlying: (any Error)?

    /// The message, with the SQLSTATE code when there is one.
    public var description: String {
      sqlState.map { "\(message) (SQLSTATE \($0))" } ?? message
    }

    init(kind: Kind, sqlState: String? = nil, message: String, underlying: (any Error)? = nil) {
      self.kind = kind
      self.sqlState = sqlState
      self.message = message
      self.underlying = underlying
    }
  }

  extension PostgreSQLFailure: TransientClassifiable {
    /// Whether the failure may go away by itself (see ``PersistenceStatus``).
    var isTransient: Bool {
      switch kind {
      case .connectionRefused, .connectionFailed, .connectionLost, .serverUnavailable: true
      case .authenticationFailed, .serverError, .other: false
      }
    }
  }

  extension PostgreSQLFailure {
    /// The failure `error` (from postgres-nio) describes, for a server at `server`
    /// reached as `user`; a ``StorageTimeout`` for a lock that was not granted in time.
    static func describing(_ error: any Error, server: String, user: String, timeout: Double) -> any Error {
      if error is StorageTimeout || error is PostgreSQLFailure { return error }
      guard let psql = error as? PSQLError else {
        return PostgreSQLFailure(kind: .other, message: "\(error)", underlying: error)
      }
      switch psql.code {
      case .server:
        let state = psql.serverInfo?[.sqlState]
        let said = psql.serverInfo?[.message] ?? "an error"
        switch state {
        case "55P03"?:  // lock_not_available: the row lock waited past lock_timeout
          return StorageTimeout(waitingFor: "the row lock on \(server) (another session holds it)", seconds: timeout)
        case let state? where state.hasPrefix("28"):
          return PostgreSQLFailure(
            kind: .authenticationFailed, sqlState: state,
            message: "\(server) refused the login of \"\(user)\": \(said)", underlying: psql)
        case let state? where ["57P01", "57P02", "57P03", "53300"].contains(state) || state.hasPrefix("08"):
          return PostgreSQLFailure(
            kind: .serverUnavailable, sqlState: state, message: "\(server) is not available: \(said)", underlying: psql)
        default:
          return PostgreSQLFailure(
            kind: .serverError, sqlState: state, message: "\(server) answered with an error: \(said)",
            underlying: psql)
        }
      case .connectionError:
        if let refused = psql.underlying.flatMap(connectionRefusal) {
          return PostgreSQLFailure(
            kind: .connectionRefused, message: "\(server) refused the connection: \(refused)", underlying: psql)
        }
        let reason = psql.underlying.map { "\($0)" } ?? "unknown reason"
        return PostgreSQLFailure(
          kind: .connectionFailed, message: "could not connect to \(server): \(reason)", underlying: psql)
      case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown:
        return PostgreSQLFailure(
          kind: .connectionLost, message: "the connection to \(server) was lost before an answer came",
          underlying: psql)
      case .unsupportedAuthMechanism, .authMechanismRequiresPassword, .saslError:
        return PostgreSQLFailure(
          kind: .authenticationFailed, message: "could not log in to \(server) as \"\(user)\": \(psql.code)",
          underlying: psql)
      case .sslUnsupported, .failedToAddSSLHandler, .receivedUnencryptedDataAfterSSLRequest:
        return PostgreSQLFailure(
          kind: .connectionFailed, message: "could not set up TLS with \(server): \(psql.code)", underlying: psql)
      default:
        return PostgreSQLFailure(
          kind: .other, message: "PostgreSQL client error at \(server): \(psql.code)", underlying: psql)
      }
    }

    /// The system's words for a refused connection, if `error` is one.
    private static func connectionRefusal(_ error: any Error) -> String? {
      if let io = error as? IOError, io.errnoCode == ECONNREFUSED { return "\(io)" }
      if let failure = error as? NIOConnectionError {
        for attempt in failure.connectionErrors {
          if let refusal = connectionRefusal(attempt.error) { return refusal }
        }
      }
      return nil
    }
  }
#endif
