import SwiftUI

class Counter: ObservableObject {
    @Published var count = 0
}

struct CounterView: View {
    @StateObject private var counter = Counter()
    @StateObject var typed: Counter = Counter()
    @EnvironmentObject private var shared: Counter
    @ObservedObject var observed: Counter
    @ObservedObject
    var plain: Counter
    @ObservedObject var fromOtherModule: ExternalModel
    @StateObject private var other = ExternalModel()

    var body: some View {
        VStack {
            Stepper("Count", value: $observed.count)
            Text("\(plain.count)")
            ChildView()
                .environmentObject(counter)
                .environmentObject(Counter())
                .environmentObject(other)
        }
    }

    func child(with model: Counter) -> some View {
        ChildView().environmentObject(model)
    }
}

extension CounterView {
    var typedBinding: Binding<Int> { $typed.count }
}
