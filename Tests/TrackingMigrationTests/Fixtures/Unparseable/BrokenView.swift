import SwiftUI

struct BrokenView: View {
    @ObservedObject var model: Broken

    var body: some View { Text("\(model.value)") }
}
