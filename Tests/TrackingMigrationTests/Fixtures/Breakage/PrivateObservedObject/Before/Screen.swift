import SwiftUI

struct Screen: View {
    var body: some View {
        VStack {
            CounterView(title: "Taps")
            BadgeView(label: "New")
            TallyView(name: "Total")
        }
    }
}
