import TCATrace

extension AppFeature {
  /// What the example app keeps out of traces: the password and the two-factor code, in the
  /// state and in the actions that carry them.
  ///
  /// ```swift
  /// let recorder = try TraceRecorder(path: "session.db", redacting: AppFeature.redactions)
  /// ```
  public static let redactions: [TraceRedaction] = [
    .state(\AppFeature.State.login.password),
    .state(\AppFeature.State.login.twoFactor?.code),
    .action(\LoginFeature.Action.Cases.view.passwordChanged),
    .action(\TwoFactorFeature.Action.Cases.view.codeChanged),
  ]
}
