import Composable
@testable import TCATrace
import TCATraceExamples
import TestSupport
import Testing

/// A session's root feature is named as the app's code names it (issue #71): a reducer's type
/// name, or, for a composition such as a `@Reducer enum`'s `body`, the feature whose state it
/// reduces.
@Suite(.hangGuard) struct RootFeatureNameTests {
  @Test func aFeatureIsNamedByItsType() {
    #expect(rootFeatureName(of: AppFeature.self) == "AppFeature")
  }

  @Test func aCompositionIsNamedByTheFeatureWhoseStateItReduces() {
    // NB: `AppFeature.Path.body`'s type is the scopes of its cases, printed with their
    // generic arguments.
    let body = type(of: AppFeature.Path.body)
    #expect(String(describing: body).contains("<"))
    #expect(rootFeatureName(of: body) == "AppFeature.Path")
    #expect(rootFeatureName(of: Reduce<AppFeature.State, AppFeature.Action>.self) == "AppFeature")
  }

  @Test func aStateOfNoFeatureLeavesTheReducersOwnName() {
    #expect(rootFeatureName(of: Reduce<Int, String>.self) == "Reduce<Int, String>")
  }
}
