// Header comment.

import Tracking

/// A note.
/* block */ @Trackable class Note /* before colon */ /* after */ { // trailing
    /// Doc comment for text.
    /* inline */ var text = ""  // keep me
    var spaced = 1
	var tabbed = 2
    // A comment before an attribute
    // comment after attribute
    var odd = 3


    var last = 4 /* end */
}