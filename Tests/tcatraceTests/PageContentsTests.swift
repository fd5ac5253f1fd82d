import Foundation
import Testing
import TestSupport

/// Issue #69: `tcatrace serve`'s page is built in as Swift string literals that
/// `Scripts/embed-page.py` writes from `Sources/tcatrace-serve/Page/`: the program serves what
/// those files say only while the literals are written from them.
@Suite(.hangGuard)
struct PageContentsTests {
  @Test func theBuiltInPageIsWrittenFromThePagesFiles() async throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", root.appendingPathComponent("Scripts/embed-page.py").path, "--check",
    ]
    process.standardInput = FileHandle.nullDevice
    let result = try await process.runToEnd(timeLimit: 60)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
  }
}
