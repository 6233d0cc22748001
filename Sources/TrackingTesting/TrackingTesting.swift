// Test helpers land here (await the next change, assert no change).
import Tracking
