// State users track with `withTracking` and ignore fields with `@TrackingIgnored`.
@_exported import Tracking
