import CustomDump
import TCATraceExamples
import Testing

@MainActor
struct SettingsTests {
  @Test func editingAndSavingSettingsUpdatesTheApp() {
    var paths: [String] = []
    let store = Store(
      initialState: AppFeature.State(user: User(id: 1, name: "blob")),
      observer: { paths.append($0.route.statePath) }
    ) {
      AppFeature()
    } withDependencies: {
      $0.apiClient = .fake(latency: .zero)
      $0.tickClient = .immediate(count: 0)
    }
    store.send(.view(.settingsButtonTapped))
    expectNoDifference(store.state.settings, SettingsFeature.State(displayName: "blob"))

    store.send(._internal(.settings(.presented(.view(.binding(.set(\.displayName, "Blob Jr.")))))))
    store.send(._internal(.settings(.presented(.view(.binding(.set(\.notificationsEnabled, true)))))))
    #expect(store.state.settings == SettingsFeature.State(displayName: "Blob Jr.", notificationsEnabled: true))

    store.send(._internal(.settings(.presented(.view(.saveButtonTapped)))))
    #expect(store.state.settings == nil)
    expectNoDifference(store.state.user, User(id: 1, name: "Blob Jr."))
    #expect(store.state.notificationsEnabled)
    expectNoDifference(paths, ["", "settings", "settings", "settings", "settings"])
  }

  @Test func dismissingSettingsDiscardsTheEdits() {
    let store = Store(initialState: AppFeature.State(user: User(id: 1, name: "blob"))) {
      AppFeature()
    } withDependencies: {
      $0.apiClient = .fake(latency: .zero)
      $0.tickClient = .immediate(count: 0)
    }
    store.send(.view(.settingsButtonTapped))
    store.send(._internal(.settings(.presented(.view(.binding(.set(\.displayName, "x")))))))
    store.send(._internal(.settings(.dismiss)))
    #expect(store.state.settings == nil)
    expectNoDifference(store.state.user, User(id: 1, name: "blob"))
  }

  @Test func bindingActionsCompareByFieldAndValue() {
    typealias Binding = BindingAction<SettingsFeature.State>
    #expect(Binding.set(\.displayName, "a") == .set(\.displayName, "a"))
    #expect(Binding.set(\.displayName, "a") != .set(\.displayName, "b"))
    #expect(Binding.set(\.notificationsEnabled, true) != .set(\.displayName, "a"))
    #expect(Binding.set(\.displayName, "a").debugDescription == #".set(\.displayName, "a")"#)
  }
}
