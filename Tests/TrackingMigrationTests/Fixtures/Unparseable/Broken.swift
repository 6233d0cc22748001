import SwiftUI

class Broken: ObservableObject {
    @Published var value = 
    func oops( {
}
