import Testing
import TCATraceLint
import TestSupport

@Suite(.hangGuard) struct SendRuleTests {
  @Test func effectsThatSendViewActions() {
    let source = """
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .view(.onAppear):
          return .run { send in
            await send(.view(.refreshTapped))
            await send(._internal(.loaded))
          }
        case .view(.refreshTapped):
          return .send(.view(.onAppear))
        case .view(.retry):
          return Effect.send(.view(.refreshTapped))
        case .view(.reload):
          return .run { [client] output in
            for await value in client.values() {
              await output(.view(.changed(value)))
            }
          }
        case .view(.poll):
          return Effect<Action>.run(operation: { send in await send(._internal(.child(.view(.tapped)))) })
        default:
          return .send(._internal(.loaded))
        }
      }
      """
    #expect(
      findings(source) == [
        "5:19 effect-sends-view-action",
        "9:19 effect-sends-view-action",
        "11:25 effect-sends-view-action",
        "15:23 effect-sends-view-action",
        // A child's view action: the more specific rule (issue #21).
        "19:82 child-private-action-sent",
      ])
  }

  @Test func helpersTakingSendAreEffects() {
    let source = """
      func load(send: Send<Action>) async {
        await send(.view(.loaded))
        await send(._internal(.loaded))
        await send(.delegate(.didLoad))
      }
      """
    #expect(findings(source) == ["2:15 effect-sends-view-action"])
  }

  @Test func privateActionsSentFromOutside() {
    let source = """
      struct ParentView: View {
        let store: StoreOf<Parent>
        var body: some View {
          Button("Refresh") { store.send(._internal(.refresh)) }
          Button("Done") { self.store.send(.delegate(.done)) }
          Button("Save") { store.send(.view(.saveTapped)) }
          Button("Child") { store.send(._internal(.child(.view(.tapped)))) }
          Button("Child's delegate") { store.send(._internal(.child(.delegate(.done)))) }
          Button("Scoped") { store.scope(state: \\.child, action: \\.child).send(.view(.tapped)) }
        }
      }
      func run(send: (Parent.Action) -> StoreTask) {
        _ = send(._internal(.refreshed))
        _ = send(._internal(.login(action)))
        _ = send(._internal(.login(.view(.tapped))))
        _ = send(._internal(.todosLoaded(.success(todos))))
        _ = send(._internal(.path(.element(id: id, action: .settings(action)))))
        _ = send(._internal(.destination(.presented(.alert(action)))))
        _ = send(._internal(.path(.element(id: id, action: .settings(.view(.saveTapped))))))
        _ = send(._internal(.path(.element(id: id, action: .settings(._internal(.saved))))))
      }
      """
    // NB: Lines 17 and 18 route to a case of an enum reducer (a stack's path, a destination)
    // whose action the syntax does not show; line 20 sends the settings' own internal action.
    #expect(
      findings(source) == [
        "4:37 view-sends-private-action",
        "5:39 view-sends-private-action",
        "8:64 view-sends-private-action",
        "13:13 view-sends-private-action",
        "16:13 view-sends-private-action",
        "20:65 view-sends-private-action",
      ])
  }

  @Test func reducersAndEffectsMaySendTheirOwnPrivateActions() {
    let source = """
      let reducer = Reduce<State, Action> { state, action in
        switch action {
        case .view(.tapped):
          return .run { send in
            await send(._internal(.loaded))
            await send(.delegate(.didLoad))
          }
        default:
          return .send(.delegate(.done))
        }
      }
      """
    #expect(findings(source) == [])
  }
}
