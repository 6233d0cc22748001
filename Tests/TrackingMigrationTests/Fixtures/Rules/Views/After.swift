import SwiftUI
import Tracking

@Trackable class Counter {
    var count = 0
}

struct CounterView: View {
    @State private var counter = Counter()
    @State var typed: Counter = Counter()
    @Environment(Counter.self) private var shared
    @Bindable var observed: Counter
    var plain: Counter
    @ObservedObject var fromOtherModule: ExternalModel
    @StateObject private var other = ExternalModel()

    var body: some View {
        VStack {
            Stepper("Count", value: $observed.count)
            Text("\(plain.count)")
            ChildView()
                .environment(counter)
                .environment(Counter())
                .environmentObject(other)
        }
    }

    func child(with model: Counter) -> some View {
        ChildView().environment(model)
    }
}

extension CounterView {
    var typedBinding: Binding<Int> { $typed.count }
}
