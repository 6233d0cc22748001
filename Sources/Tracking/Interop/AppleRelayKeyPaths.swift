#if canImport(Observation)
  // The key paths through which an `AppleRelay` reports property `id` of its object to
  // Apple's registrar, which hashes and compares them on every tracked read and write.
  // A key path to a property without arguments hashes in a few instructions; one to a
  // subscript (`\AppleRelay[property: id]`) also hashes its argument, which made a
  // SwiftUI-style tracking of our objects slower than Apple's of its own. So the
  // identifiers the macro hands out first (below 64) get a property each; larger ones
  // use the subscript.

  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  extension AppleRelay {
    /// The key paths of properties 0 to 63, in order.
    static func makeCommonKeyPaths() -> [KeyPath<AppleRelay, Int>] {
      [
        \.p0, \.p1, \.p2, \.p3, \.p4, \.p5, \.p6, \.p7, \.p8, \.p9, \.p10, \.p11, \.p12,
        \.p13, \.p14, \.p15, \.p16, \.p17, \.p18, \.p19, \.p20, \.p21, \.p22, \.p23, \.p24,
        \.p25, \.p26, \.p27, \.p28, \.p29, \.p30, \.p31, \.p32, \.p33, \.p34, \.p35, \.p36,
        \.p37, \.p38, \.p39, \.p40, \.p41, \.p42, \.p43, \.p44, \.p45, \.p46, \.p47, \.p48,
        \.p49, \.p50, \.p51, \.p52, \.p53, \.p54, \.p55, \.p56, \.p57, \.p58, \.p59, \.p60,
        \.p61, \.p62, \.p63
      ]
    }

    var p0: Int { 0 }
    var p1: Int { 1 }
    var p2: Int { 2 }
    var p3: Int { 3 }
    var p4: Int { 4 }
    var p5: Int { 5 }
    var p6: Int { 6 }
    var p7: Int { 7 }
    var p8: Int { 8 }
    var p9: Int { 9 }
    var p10: Int { 10 }
    var p11: Int { 11 }
    var p12: Int { 12 }
    var p13: Int { 13 }
    var p14: Int { 14 }
    var p15: Int { 15 }
    var p16: Int { 16 }
    var p17: Int { 17 }
    var p18: Int { 18 }
    var p19: Int { 19 }
    var p20: Int { 20 }
    var p21: Int { 21 }
    var p22: Int { 22 }
    var p23: Int { 23 }
    var p24: Int { 24 }
    var p25: Int { 25 }
    var p26: Int { 26 }
    var p27: Int { 27 }
    var p28: Int { 28 }
    var p29: Int { 29 }
    var p30: Int { 30 }
    var p31: Int { 31 }
    var p32: Int { 32 }
    var p33: Int { 33 }
    var p34: Int { 34 }
    var p35: Int { 35 }
    var p36: Int { 36 }
    var p37: Int { 37 }
    var p38: Int { 38 }
    var p39: Int { 39 }
    var p40: Int { 40 }
    var p41: Int { 41 }
    var p42: Int { 42 }
    var p43: Int { 43 }
    var p44: Int { 44 }
    var p45: Int { 45 }
    var p46: Int { 46 }
    var p47: Int { 47 }
    var p48: Int { 48 }
    var p49: Int { 49 }
    var p50: Int { 50 }
    var p51: Int { 51 }
    var p52: Int { 52 }
    var p53: Int { 53 }
    var p54: Int { 54 }
    var p55: Int { 55 }
    var p56: Int { 56 }
    var p57: Int { 57 }
    var p58: Int { 58 }
    var p59: Int { 59 }
    var p60: Int { 60 }
    var p61: Int { 61 }
    var p62: Int { 62 }
    var p63: Int { 63 }
  }
#endif
