// Header comment.

/// A note.
/* block */ class Note /* before colon */: ObservableObject /* after */ { // trailing
    /// Doc comment for text.
    @Published /* inline */ var text = ""  // keep me
    @Published   var spaced = 1
	@Published	var tabbed = 2
    // A comment before an attribute
    @Published
    // comment after attribute
    var odd = 3


    @Published var last = 4 /* end */
}