import CustomDump
import TCATraceExamples
import Testing
import TestSupport

@MainActor
@Suite(.hangGuard)
struct SettingsTests {
  @Test func editingAndSavingSettingsUpdatesTheApp() throws {
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
    let id = try #require(store.state.path.ids.last)
    expectNoDifference(
      store.state.path[id: id], .settings(SettingsFeature.State(displayName: "blob")))

    func settings(_ action: SettingsFeature.Action) {
      store.send(._internal(.path(.element(id: id, action: .settings(action)))))
    }
    settings(.view(.binding(.set(\.displayName, "Blob Jr."))))
    settings(.view(.binding(.set(\.notificationsEnabled, true))))
    #expect(
      store.state.path[id: id]?.settings
        == SettingsFeature.State(displayName: "Blob Jr.", notificationsEnabled: true)
    )

    settings(.view(.saveButtonTapped))
    #expect(store.state.path.isEmpty)
    expectNoDifference(store.state.user, User(id: 1, name: "Blob Jr."))
    #expect(store.state.notificationsEnabled)
    let settingsPath = "path[id: \(id)].settings"
    expectNoDifference(paths, ["", settingsPath, settingsPath, settingsPath, settingsPath])
  }

  @Test func poppingSettingsDiscardsTheEdits() throws {
    let store = Store(initialState: AppFeature.State(user: User(id: 1, name: "blob"))) {
      AppFeature()
    } withDependencies: {
      $0.apiClient = .fake(latency: .zero)
      $0.tickClient = .immediate(count: 0)
    }
    store.send(.view(.settingsButtonTapped))
    let id = try #require(store.state.path.ids.last)
    store.send(
      ._internal(
        .path(.element(id: id, action: .settings(.view(.binding(.set(\.displayName, "x"))))))))
    store.send(._internal(.path(.popFrom(id: id))))
    #expect(store.state.path.isEmpty)
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
