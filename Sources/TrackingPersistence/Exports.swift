// Importing this module is enough: it brings the whole Tracking runtime with it.
@_exported import Tracking
