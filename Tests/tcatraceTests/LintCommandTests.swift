import CustomDump
import Foundation
import TestSupport
import Testing

/// `tcatrace lint`, run as a user runs it.
@Suite(.hangGuard)
struct LintCommandTests {
  /// The package's root directory.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  @Test func theExamplesHoldExactlyTheLeakyExamplesLeaks() async throws {
    let result = try await Product.tcatrace.run(
      ["lint", "Sources/TCATraceExamples"], in: Self.root)
    #expect(result.status == 1)
    #expect(result.stderr.isEmpty)
    expectNoDifference(
      result.stdout,
      """
      Sources/TCATraceExamples/Demo/DemoScript.swift:129:15: error: '._internal(.refreshed)' sends a feature's internal action from outside its reducer and effects; send a view action instead [view-sends-private-action]
      Sources/TCATraceExamples/Leaky/LeakyParentFeature.swift:73:21: error: an effect sends '.view(.refreshButtonTapped)'; view actions come from the view: send an internal action instead [effect-sends-view-action]
      Sources/TCATraceExamples/Leaky/LeakyParentFeature.swift:90:18: error: '.child(.view)' matches a view action of the child 'child'; a parent reacts only to its children's delegate actions [parent-reacts-to-private-child-action]
      Sources/TCATraceExamples/Leaky/LeakyParentFeature.swift:95:41: error: '.child(._internal(.grandchild(.delegate)))' matches the delegate action of 'grandchild', 2 embeddings down (through 'child'); react to the delegate actions of your direct children only [ancestor-reacts-to-grandchild-delegate]
      4 findings in 2 of 13 files.

      """
    )
  }

  @Test func theWellBehavedFeaturesAreClean() async throws {
    let result = try await Product.tcatrace.run(
      [
        "lint", "Sources/TCATraceExamples/App", "Sources/TCATraceExamples/Login",
        "Sources/TCATraceExamples/Todos",
        "Sources/TCATraceExamples/Settings",
      ],
      in: Self.root
    )
    #expect(result.status == 0)
    #expect(result.stdout == "No boundary findings in 7 files.\n")
  }

  @Test func xcodeFormatIsWhatXcodeShowsInline() async throws {
    let directory = try TemporaryDirectory()
    try Self.write(
      "switch action {\ncase ._internal(.settings(.view)): break\ndefault: break\n}\n",
      to: directory.path("Parent.swift")
    )
    let result = try await Product.tcatrace.run(["lint", "--format", "xcode"], in: directory.url)
    #expect(result.status == 1)
    let path = directory.url.appendingPathComponent("Parent.swift").standardizedFileURL.path
    #expect(
      result.stdout
        == "\(path):2:28: error: '._internal(.settings(.view))' matches a view action of the child 'settings'; a parent reacts only to its children's delegate actions (parent-reacts-to-private-child-action)\n"
    )
  }

  @Test func jsonFormatAndChosenRules() async throws {
    let directory = try TemporaryDirectory()
    try Self.write(
      """
      switch action {
      case ._internal(.settings(.view)): break
      case ._internal(.a(._internal(.b(.delegate)))): break
      default: break
      }
      """,
      to: directory.path("Parent.swift")
    )
    let result = try await Product.tcatrace.run(
      [
        "lint", "Parent.swift", "--format", "json", "--rule",
        "ancestor-reacts-to-grandchild-delegate",
      ],
      in: directory.url
    )
    #expect(result.status == 1)
    expectNoDifference(
      result.stdout,
      """
      [{"file":"Parent.swift","line":3,"column":35,"rule":"ancestor-reacts-to-grandchild-delegate","severity":"error","message":"'._internal(.a(._internal(.b(.delegate))))' matches the delegate action of 'b', 2 embeddings down (through 'a'); react to the delegate actions of your direct children only"}]

      """
    )
    let clean = try await Product.tcatrace.run(
      ["lint", "Parent.swift", "--format", "json", "--rule", "effect-sends-view-action"],
      in: directory.url
    )
    #expect(clean.status == 0)
    #expect(clean.stdout == "[]\n")
    // Issue #72: a rule's former name, from before it took the trace's name, still chooses it,
    // with a note.
    let former = try await Product.tcatrace.run(
      ["lint", "Parent.swift", "--format", "json", "--rule", "grandchild-delegate-access"],
      in: directory.url
    )
    #expect(former.status == 1)
    #expect(former.stdout.contains(#""rule":"ancestor-reacts-to-grandchild-delegate""#))
    #expect(
      former.stderr
        == "note: 'grandchild-delegate-access' is the former name of 'ancestor-reacts-to-grandchild-delegate', the name the trace gives the rule too; the former name still works\n"
    )
  }

  /// A file whose path holds what GitHub's workflow commands escape, in a folder below the
  /// repository's root, with a suppression that names no rule (its message quotes it, `%` and
  /// all) and a finding after a name with a letter of two UTF-8 bytes (one UTF-16 unit).
  private static func oddRepository() throws -> (TemporaryDirectory, folder: URL) {
    let directory = try TemporaryDirectory()
    try FileManager.default.createDirectory(
      at: directory.url.appendingPathComponent(".git"), withIntermediateDirectories: true)
    let folder = directory.url.appendingPathComponent("Odd, dir:1")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Self.write(
      """
      // tcatrace-lint:disable:next 100%sure
      switch action {
      case ._internal(.réglages(.view)): break
      default: break
      }

      """,
      to: folder.appendingPathComponent("50% Feature.swift").path
    )
    return (directory, folder)
  }

  /// Issue #62: annotations as GitHub's workflow commands are documented, the path from the
  /// repository's root, `%`, `:` and `,` escaped where GitHub says; a warning alone exits 0.
  @Test func githubFormatIsGitHubsWorkflowCommands() async throws {
    let (directory, folder) = try Self.oddRepository()
    let result = try await Product.tcatrace.run(["lint", ".", "--format", "github"], in: folder)
    #expect(result.status == 1)
    #expect(result.stderr.isEmpty)
    expectNoDifference(
      result.stdout,
      """
      ::warning file=Odd%2C dir%3A1/50%25 Feature.swift,line=1,col=1,title=unused-suppression::'// tcatrace-lint:disable:next 100%25sure' names no rule '100%25sure'; the rules are parent-reacts-to-private-child-action, child-private-action-sent, ancestor-reacts-to-grandchild-delegate, effect-sends-view-action, view-sends-private-action
      ::error file=Odd%2C dir%3A1/50%25 Feature.swift,line=3,col=29,title=parent-reacts-to-private-child-action::'._internal(.réglages(.view))' matches a view action of the child 'réglages'; a parent reacts only to its children's delegate actions

      """
    )
    let warningsOnly = try await Product.tcatrace.run(
      [
        "lint", ".", "--format", "github", "--rule", "effect-sends-view-action", "--rule",
        "unused-suppression",
      ],
      in: folder
    )
    #expect(warningsOnly.status == 0)
    #expect(
      warningsOnly.stdout.hasPrefix("::warning file=Odd%2C dir%3A1/50%25 Feature.swift,line=1,"))
    _ = directory
  }

  /// Issue #62: SARIF 2.1.0 as code scanning reads it, paths from the repository's root; read
  /// by a SARIF consumer and a validator from PyPI where they are installed.
  @Test func sarifFormatIsSARIF() async throws {
    let (directory, folder) = try Self.oddRepository()
    let result = try await Product.tcatrace.run(["lint", ".", "--format", "sarif"], in: folder)
    #expect(result.status == 1)
    let log = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(log["version"] as? String == "2.1.0")
    let run = try #require((log["runs"] as? [[String: Any]])?.first)
    let results = try #require(run["results"] as? [[String: Any]])
    #expect(
      results.map { $0["ruleId"] as? String } == [
        "unused-suppression", "parent-reacts-to-private-child-action",
      ])
    #expect(results.map { $0["level"] as? String } == ["warning", "error"])
    let location = try #require(
      ((results[1]["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any])
    #expect(
      (location["artifactLocation"] as? [String: Any])?["uri"] as? String
        == "Odd%2C%20dir%3A1/50%25%20Feature.swift")
    #expect((location["region"] as? [String: Any])?["startLine"] as? Int == 3)
    // NB: SARIF counts UTF-16 code units, the linter UTF-8 bytes (29, as `github` says).
    #expect((location["region"] as? [String: Any])?["startColumn"] as? Int == 28)
    let base = (run["originalUriBaseIds"] as? [String: Any])?["%SRCROOT%"] as? [String: Any]
    #expect(base?["uri"] as? String == directory.url.standardizedFileURL.absoluteString + "/")
    // Issue #72: a renamed rule's former name, as SARIF keeps one.
    let rules = try #require(
      ((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
    let deprecated = Dictionary(
      uniqueKeysWithValues: rules.compactMap { rule in
        (rule["deprecatedIds"] as? [String]).map { (rule["id"] as? String ?? "", $0) }
      })
    #expect(
      deprecated == [
        "parent-reacts-to-private-child-action": ["child-private-action-access"],
        "ancestor-reacts-to-grandchild-delegate": ["grandchild-delegate-access"],
        "effect-sends-view-action": ["view-action-from-effect"],
        "view-sends-private-action": ["private-action-sent-from-view"],
      ])

    _ = directory
  }

  /// The log read by a SARIF consumer, Microsoft's sarif-tools, and checked against SARIF
  /// 2.1.0's object model by sarif-pydantic, both from PyPI (`.ci/run` installs them).
  @Test(
    .enabled("needs sarif-tools and sarif-pydantic (pip install sarif-tools sarif-pydantic)") {
      await Self.hasSARIFReaders()
    })
  func sarifIsReadBySARIFTools() async throws {
    let (directory, folder) = try Self.oddRepository()
    let result = try await Product.tcatrace.run(["lint", ".", "--format", "sarif"], in: folder)
    let file = directory.path("lint.sarif")
    try result.stdout.write(toFile: file, atomically: true, encoding: .utf8)
    let check = Process()
    check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    check.arguments = [
      "python3", Self.root.appendingPathComponent("Tests/tcatraceTests/Python/sarif_check.py").path,
      file,
    ]
    let read = try await check.runToEnd(timeLimit: 120)
    #expect(read.status == 0, "\(read.stderr)")
    #expect(
      read.stdout == """
        {"errors": 1, "files": ["Odd, dir:1/50% Feature.swift"], "results": [["unused-suppression", "warning", 1], ["parent-reacts-to-private-child-action", "error", 3]], "rules": 6, "warnings": 1}

        """
    )
  }

  static func hasSARIFReaders() async -> Bool {
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    probe.arguments = ["python3", "-c", "import sarif.loader, sarif_pydantic"]
    return (try? await probe.runToEnd(timeLimit: 60))?.status == 0
  }

  @Test func buildAndHiddenDirectoriesAreSkipped() async throws {
    let directory = try TemporaryDirectory()
    let leak = "let x = store.send(._internal(.refresh))\n"
    for folder in [".build/checkouts", ".git", "Sources/App"] {
      try FileManager.default.createDirectory(
        at: directory.url.appendingPathComponent(folder), withIntermediateDirectories: true
      )
      try Self.write(leak, to: directory.path("\(folder)/File.swift"))
    }
    try Self.write(leak, to: directory.path("Sources/App/notes.txt"))
    let result = try await Product.tcatrace.run(["lint"], in: directory.url)
    #expect(result.status == 1)
    #expect(result.stdout.hasPrefix("./Sources/App/File.swift:1:21: error: '._internal(.refresh)'"))
    #expect(result.stdout.hasSuffix("1 finding in 1 of 1 file.\n"))
  }

  /// Issue #21: a file that does not parse is named on standard error, once, and what did
  /// parse is still checked.
  @Test func aFileThatDoesNotParseIsAWarning() async throws {
    let directory = try TemporaryDirectory()
    try "switch action {\ncase ._internal(.child(.view(.tapped))): break\n}}} func (\n"
      .write(toFile: directory.path("Broken.swift"), atomically: true, encoding: .utf8)
    try "let x = 1\n".write(toFile: directory.path("Good.swift"), atomically: true, encoding: .utf8)
    let result = try await Product.tcatrace.run(["lint", "."], in: directory.url)
    #expect(result.status == 1)
    expectNoDifference(
      result.stderr,
      "warning: './Broken.swift' has syntax errors; it was checked as far as it parses, so findings in it may be missing\n"
    )
    #expect(
      result.stdout.hasPrefix(
        "./Broken.swift:2:25: error: '._internal(.child(.view))' matches a view action"))
    #expect(result.stdout.hasSuffix("1 finding in 1 of 2 files.\n"))

    // The warning does not change the exit code: no findings, exit 0.
    try "struct A { func (\n".write(
      toFile: directory.path("Broken.swift"), atomically: true, encoding: .utf8)
    let clean = try await Product.tcatrace.run(["lint", "."], in: directory.url)
    #expect(clean.status == 0)
    #expect(clean.stderr.hasPrefix("warning: './Broken.swift' has syntax errors;"))
    #expect(clean.stdout == "No boundary findings in 2 files.\n")
  }

  @Test func badInputIsOneLineAndExitTwo() async throws {
    let directory = try TemporaryDirectory()
    try Self.write("not swift", to: directory.path("README.md"))
    let cases: [([String], String)] = [
      (
        ["lint", "Missing"], "Error: 'Missing' does not exist: give a Swift file or a directory.\n"
      ),
      (
        ["lint", "README.md"],
        "Error: 'README.md' is not a Swift file: give .swift files or directories.\n"
      ),
      (
        ["lint", "--rule", "no-such-rule"],
        "Error: no rule 'no-such-rule'; the rules are parent-reacts-to-private-child-action, child-private-action-sent, ancestor-reacts-to-grandchild-delegate, effect-sends-view-action, view-sends-private-action, unused-suppression.\n"
      ),
      (
        ["lint", "--format", "html"],
        "Error: The value 'html' is invalid for '--format <format>'. Please provide one of 'text', 'json', 'xcode', 'github' or 'sarif'; see 'tcatrace lint --help'.\n"
      ),
    ]
    for (arguments, expected) in cases {
      let result = try await Product.tcatrace.run(arguments, in: directory.url)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.stdout.isEmpty)
      #expect(result.stderr == expected)
    }
  }

  @Test func lintIsTheLinterProgramRunUnderTcatrace() async throws {
    let arguments = ["Sources/TCATraceExamples/Leaky", "--format", "json"]
    let direct = try await Product.tcatraceLint.run(arguments, in: Self.root)
    let forwarded = try await Product.tcatrace.run(["lint"] + arguments, in: Self.root)
    #expect(direct.status == 1)
    #expect(
      direct.stdout.hasPrefix(
        #"[{"file":"Sources/TCATraceExamples/Leaky/LeakyParentFeature.swift""#))
    #expect(forwarded.status == direct.status)
    expectNoDifference(forwarded.stdout, direct.stdout)
    #expect(forwarded.stderr.isEmpty)
  }

  @Test func helpIsTheLintersHelp() async throws {
    let help = try await Product.tcatraceLint.run(["--help"])
    #expect(help.status == 0)
    #expect(
      help.stdout.contains(
        "USAGE: tcatrace lint [<paths> ...] [--format <format>] [--rule <name> ...] [--config <file>] [--no-config] [--force-exclude] [--baseline <file>] [--write-baseline <file>]\n"
      ))
    #expect(help.stdout.contains("  ancestor-reacts-to-grandchild-delegate: "))
    for arguments in [["lint", "--help"], ["lint", "-h"], ["help", "lint"]] {
      let forwarded = try await Product.tcatrace.run(arguments)
      #expect(forwarded.status == 0, "\(arguments)")
      expectNoDifference(forwarded.stdout, help.stdout)
    }
    let version = try await Product.tcatraceLint.run(["--version"])
    #expect(version.stdout == "0.1.0\n")
  }

  /// `tcatrace lint` runs the linter in its own place with no signal blocked: it did so from a
  /// thread of the concurrency pool, which blocks most signals, and the linter then started
  /// deaf to Ctrl-C and `kill` (issue #69's review). A linter of the test's own, beside a copy of
  /// `tcatrace`, prints the signals blocked in it.
  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status")))
  func theLinterStartsWithNoSignalBlocked() async throws {
    let directory = try TemporaryDirectory()
    let copy = try Product.tcatrace.copy(into: directory.url)
    let linter = directory.url.appendingPathComponent("tcatrace-lint")
    // NB: `exec`, so that the mask read is the one the linter started with, not the shell's
    // while it forks. Written by a process of its own: a file this process held open to write
    // it is inherited by a child another test starts at that moment, and running it then
    // fails ("Text file busy").
    let writer = Process()
    writer.executableURL = URL(fileURLWithPath: "/bin/sh")
    writer.arguments = [
      "-c",
      "printf '#!/bin/sh\\nexec grep \"^SigBlk\" /proc/self/status\\n' > \"$1\" && chmod 755 \"$1\"",
      "sh", linter.path,
    ]
    let written = try await writer.runToEnd()
    try #require(written.status == 0, "\(written.stderr)")
    let result = try await Product.tcatrace.run(["lint", "A.swift"], executableURL: copy)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "SigBlk:\t0000000000000000\n")
  }

  /// `tcatrace` copied where no `tcatrace-lint` is.
  @Test func aMissingLinterIsOneLineAndExitTwo() async throws {
    let directory = try TemporaryDirectory()
    let copy = try Product.tcatrace.copy(into: directory.url)
    let missing = try await Product.tcatrace.run(
      ["lint", "Sources/TCATraceExamples"], in: Self.root, environment: ["PATH": "/usr/bin:/bin"],
      executableURL: copy
    )
    #expect(missing.status == 2)
    #expect(missing.stdout.isEmpty)
    #expect(
      missing.stderr.hasPrefix(
        "Error: tcatrace lint runs tcatrace-lint, which is neither beside tcatrace (in /"))
    #expect(
      missing.stderr.hasSuffix(
        "\(directory.url.lastPathComponent)) nor on PATH; install it beside tcatrace ('swift build -c release' builds both)\n"
      )
    )

    // NB: Else the first on PATH.
    let products = Product.tcatraceLint.executableURL.deletingLastPathComponent().path
    let onPath = try await Product.tcatrace.run(
      ["lint", "Sources/TCATraceExamples/Leaky"], in: Self.root,
      environment: ["PATH": "\(products):/usr/bin:/bin"],
      executableURL: copy
    )
    #expect(onPath.status == 1)
    #expect(onPath.stdout.hasSuffix("3 findings in 1 of 1 file.\n"))
  }

  /// `tcatrace` run from a build folder of a checkout of this package (as `swift run tcatrace
  /// lint` runs it) where `tcatrace-lint` is not built yet builds it there with `swift build`,
  /// once, and runs it; `swift build`'s output goes to standard error.
  @Test func inACheckoutAMissingLinterIsBuiltFirst() async throws {
    let directory = try TemporaryDirectory()
    let package = directory.url.appendingPathComponent("TCATrace")
    let products = Product.tcatrace.executableURL.deletingLastPathComponent()
    let buildFolder = package.appendingPathComponent(".build")
      .appendingPathComponent(products.deletingLastPathComponent().lastPathComponent)
      .appendingPathComponent(products.lastPathComponent)
    try FileManager.default.createDirectory(at: buildFolder, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      at: package.appendingPathComponent("Sources/tcatrace-lint"), withIntermediateDirectories: true
    )
    try Self.write(
      "// swift-tools-version: 6.1\n", to: package.appendingPathComponent("Package.swift").path)
    let copy = try Product.tcatrace.copy(into: buildFolder)

    // NB: A `swift` that notes its arguments and "builds" a linter that echoes its own.
    let bin = directory.url.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    let calls = directory.url.appendingPathComponent("swift-calls").path
    try Self.write(
      """
      #!/bin/sh
      echo "$*" >> '\(calls)'
      echo "Compiling tcatrace-lint"
      [ -n "$SWIFT_FAILS" ] && exit 1
      printf '#!/bin/sh\\necho "linted $*"\\n' > "$5/\(buildFolder.deletingLastPathComponent().lastPathComponent)/$7/$9"
      chmod +x "$5/\(buildFolder.deletingLastPathComponent().lastPathComponent)/$7/$9"

      """,
      to: bin.appendingPathComponent("swift").path
    )
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o755], ofItemAtPath: bin.appendingPathComponent("swift").path)
    let path = "\(bin.path):/usr/bin:/bin"

    let failing = try await Product.tcatrace.run(
      ["lint", "Sources"], environment: ["PATH": path, "SWIFT_FAILS": "1"], executableURL: copy
    )
    #expect(failing.status == 2)
    #expect(failing.stdout.isEmpty)
    #expect(
      failing.stderr.hasSuffix(
        "Compiling tcatrace-lint\nError: could not build tcatrace-lint, which tcatrace lint runs ('swift build' exited with status 1); its output is above\n"
      )
    )

    let first = try await Product.tcatrace.run(
      ["lint", "Sources"], environment: ["PATH": path], executableURL: copy)
    #expect(first.status == 0)
    #expect(first.stdout == "linted Sources\n")
    let build =
      "build --package-path \(package.path) --scratch-path \(package.path)/.build"
      + " --configuration \(products.lastPathComponent) --product tcatrace-lint"
    expectNoDifference(
      first.stderr,
      """
      tcatrace lint runs tcatrace-lint, which is not built yet; building it: swift \(build)
      Compiling tcatrace-lint

      """
    )

    let second = try await Product.tcatrace.run(
      ["lint", "Sources"], environment: ["PATH": path], executableURL: copy)
    #expect(second.stdout == "linted Sources\n")
    #expect(second.stderr.isEmpty)
    expectNoDifference(try String(contentsOfFile: calls, encoding: .utf8), "\(build)\n\(build)\n")
  }

  /// Issue #62: `.tcatrace-lint.yml`, found from the working directory up, says what is checked
  /// and how; the command line wins over it; a bad file is one line, exit 2, and is left as it was.
  @Test func theConfigurationFileAndTheCommandLineOverIt() async throws {
    let directory = try TemporaryDirectory()
    let sources = directory.url.appendingPathComponent("Sources")
    for folder in ["App", "Generated"] {
      try FileManager.default.createDirectory(
        at: sources.appendingPathComponent(folder), withIntermediateDirectories: true)
      try Self.write(
        "switch action {\ncase ._internal(.settings(.view)): break\ndefault: break\n}\n",
        to: sources.appendingPathComponent("\(folder)/Parent.swift").path)
    }
    let configuration = """
      included: [Sources]
      excluded: [Sources/Generated]
      rules:
        parent-reacts-to-private-child-action: warning
      """
    try Self.write(configuration, to: directory.path(".tcatrace-lint.yml"))

    // From a folder below it: the file's `included`, relative to its folder, less `excluded`;
    // a warning alone exits 0.
    let below = try await Product.tcatrace.run(["lint"], in: sources.appendingPathComponent("App"))
    #expect(below.status == 0)
    #expect(below.stdout.contains("/Sources/App/Parent.swift:2:28: warning: "))
    #expect(below.stdout.hasSuffix("1 finding in 1 of 1 file.\n"))

    // The command line's paths and rules win; `excluded` does not apply to a file named.
    let named = try await Product.tcatrace.run(
      [
        "lint", "Sources/Generated/Parent.swift", "--rule", "parent-reacts-to-private-child-action",
      ],
      in: directory.url)
    #expect(named.status == 0)
    #expect(named.stdout.hasPrefix("Sources/Generated/Parent.swift:2:28: warning: "))
    // Unless `--force-exclude`, which the build plugin gives with every file of a target.
    let forced = try await Product.tcatrace.run(
      ["lint", "Sources/Generated/Parent.swift", "Sources/App/Parent.swift", "--force-exclude"],
      in: directory.url)
    #expect(forced.stdout.hasPrefix("Sources/App/Parent.swift:2:28: warning: "))
    #expect(forced.stdout.hasSuffix("1 finding in 1 of 1 file.\n"))

    // `off` is off unless the command line names the rule.
    try Self.write(
      "rules:\n  parent-reacts-to-private-child-action: off\n",
      to: directory.path(".tcatrace-lint.yml"))
    let off = try await Product.tcatrace.run(["lint", "Sources"], in: directory.url)
    #expect(off.status == 0)
    #expect(off.stdout == "No boundary findings in 2 files.\n")
    let none = try await Product.tcatrace.run(
      ["lint", "Sources", "--no-config"], in: directory.url)
    #expect(none.status == 1)
    #expect(none.stdout.hasSuffix("2 findings in 2 of 2 files.\n"))

    // A bad file.
    let bad = "rules:\n  parent-reacts-to-private-child-action: sometimes\n"
    try Self.write(bad, to: directory.path(".tcatrace-lint.yml"))
    let refused = try await Product.tcatrace.run(["lint", "Sources"], in: directory.url)
    #expect(refused.status == 2)
    #expect(refused.stdout.isEmpty)
    expectNoDifference(
      refused.stderr,
      "Error: '\(directory.url.resolvingSymlinksInPath().path)/.tcatrace-lint.yml' line 2, column 42: 'parent-reacts-to-private-child-action' should be error, warning or off.\n"
        .replacingOccurrences(of: "/private/", with: "/"))
    #expect(
      try String(contentsOfFile: directory.path(".tcatrace-lint.yml"), encoding: .utf8) == bad)
    let missing = try await Product.tcatrace.run(
      ["lint", "--config", "nowhere.yml"], in: directory.url)
    #expect(missing.status == 2)
    #expect(
      missing.stderr == "Error: 'nowhere.yml' does not exist: give a configuration file.\n")
  }

  /// Issue #62: a baseline written today hides today's findings from tomorrow's lint, through
  /// edits above them, and not a new one.
  @Test func aBaselineHidesTodaysFindingsNotNewOnes() async throws {
    let directory = try TemporaryDirectory()
    let file = directory.path("Parent.swift")
    try Self.write(
      "switch action {\ncase ._internal(.settings(.view)): break\ndefault: break\n}\n", to: file)
    let written = try await Product.tcatrace.run(
      ["lint", "--write-baseline", "lint-baseline.json"], in: directory.url)
    #expect(written.status == 0)
    #expect(written.stdout == "Wrote 1 finding to the baseline 'lint-baseline.json'.\n")

    try Self.write(
      """
      import Foundation

      switch action {
      case ._internal(.settings(.view)): break
      case ._internal(.profile(.internal)): break
      default: break
      }

      """,
      to: file)
    let result = try await Product.tcatrace.run(
      ["lint", "--baseline", "lint-baseline.json"], in: directory.url)
    #expect(result.status == 1)
    expectNoDifference(
      result.stdout,
      """
      ./Parent.swift:5:27: error: '._internal(.profile(.internal))' matches an internal action of the child 'profile'; a parent reacts only to its children's delegate actions [parent-reacts-to-private-child-action]
      1 finding in 1 of 1 file; 1 more is in the baseline.

      """)

    // The configuration's `baseline`, relative to its folder; a bad baseline is one line.
    try Self.write("baseline: lint-baseline.json\n", to: directory.path(".tcatrace-lint.yml"))
    let configured = try await Product.tcatrace.run(
      ["lint", "--format", "json"], in: directory.url)
    #expect(configured.stdout.components(separatedBy: "\"rule\"").count == 2)
    try Self.write("[]", to: directory.path("lint-baseline.json"))
    let bad = try await Product.tcatrace.run(["lint"], in: directory.url)
    #expect(bad.status == 2)
    #expect(
      bad.stderr.hasSuffix(
        "lint-baseline.json' is not a tcatrace-lint baseline: write it again with --write-baseline.\n"
      ))
    let unwritable = try await Product.tcatrace.run(
      ["lint", "--write-baseline", "no/such/folder/b.json"], in: directory.url)
    #expect(unwritable.status == 2)
    #expect(unwritable.stderr.hasPrefix("Error: cannot write the baseline 'no/such/folder/b.json'"))
  }

  static func write(_ text: String, to path: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }
}
