import RuntimeSupport
import TestSupport
import Testing

/// A state whose properties are computed over storage, as TCA's `@ObservableState` makes them.
private struct Computed {
  var _title = ""
  var _pair: (Int, Int)? = nil
  var _child = Child()

  var title: String {
    get { self._title }
    set { self._title = newValue }
  }
  var pair: (Int, Int)? {
    get { self._pair }
    set { self._pair = newValue }
  }
  var child: Child {
    get { self._child }
    set { self._child = newValue }
  }

  struct Child {
    var _flag = false
    var flag: Bool {
      get { self._flag }
      set { self._flag = newValue }
    }
  }
}

/// On Linux the standard library describes a computed property in a key path as `<computed
/// 0x… (Type)>`; the recorder names it from the program's symbols (#41).
@Suite(.hangGuard)
struct ComputedPropertyNamesTests {
  @Test func computedPropertiesAreNamedFromTheProgramsSymbols() {
    #expect(KeyPathNames.name(of: \Computed.title) == "title")
    #expect(KeyPathNames.name(of: \Computed.child.flag) == "child.flag")
    // NB: A type with `<>` and parentheses inside the component's own.
    #expect(KeyPathNames.name(of: \Computed.pair) == "pair")
  }

  @Test func aComponentWhoseSymbolIsNotFoundIsKeptWhole() {
    let unknown = #"\State.<computed 0x0000000000000010 (Optional<(Int, Int)>)>.name"#
    #expect(ComputedPropertyNames.naming(unknown) == unknown)
    #expect(ComputedPropertyNames.naming(#"\State.name"#) == #"\State.name"#)
  }

  @Test func thePropertyIsReadFromItsKeyPathGettersName() {
    #expect(
      ComputedPropertyNames.property(
        inGetter:
          "key path getter for App.LoginFeature.State.password : Swift.String : App.LoginFeature.State"
      ) == "password"
    )
    #expect(
      ComputedPropertyNames.property(
        inGetter:
          "key path getter for App.(State in _F662BD4A).title : Swift.String : App.(State in _F662BD4A)"
      ) == "title"
    )
    #expect(
      ComputedPropertyNames.property(
        inGetter: "App.LoginFeature.State.password.getter : Swift.String") == nil)
  }
}
