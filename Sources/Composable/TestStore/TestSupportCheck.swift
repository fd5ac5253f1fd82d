#if os(Linux) || os(Android)
  import Glibc
  import IssueReporting

  /// Stops a test whose failures could not fail it: on Linux, IssueReporting records a test's
  /// issues through `IssueReportingTestSupport`, and a test target that does not link it only
  /// prints them — a `TestStore` whose assertion is wrong would pass. (On Apple platforms
  /// IssueReporting finds the test frameworks itself.)
  enum TestSupportCheck {
    /// The symbol IssueReporting looks up to record an issue in a test.
    private static let recordIssue = "$s25IssueReportingTestSupport07_recordA0ypyF"

    static let isLinked: Bool = {
      guard
        let handle = dlopen("libIssueReportingTestSupport.so", RTLD_LAZY) ?? dlopen(nil, RTLD_LAZY)
      else { return false }
      return dlsym(handle, recordIssue) != nil
    }()

    /// Ends the process, saying what to add, when a test runs without the test support.
    static func require(fileID: StaticString, line: UInt) {
      guard isTesting, !isLinked else { return }
      fatalError(
        """
        \(fileID):\(line): TestStore cannot fail this test: its test target does not link \
        IssueReportingTestSupport, so on Linux a failed assertion would only be printed and the \
        test would pass. Add .product(name: "IssueReportingTestSupport", package: \
        "xctest-dynamic-overlay") to the test target's dependencies (and \
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1") \
        to the package's).
        """
      )
    }
  }
#endif
