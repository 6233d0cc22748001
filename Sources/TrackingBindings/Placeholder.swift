// TrackingBindings lands here.
