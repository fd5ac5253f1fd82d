import Subprocess
import ToolSupport

/// Runs `path` with `arguments` (the first is the program's name), sharing this process's
/// standard streams and environment, and waits for it: its exit status, or 128 + the signal
/// that stopped it. With `input`, its standard input is a pipe that is given `input` and then
/// closed; with `outputToStandardError`, what it writes on standard output goes to standard
/// error.
///
/// NB: Through swift-subprocess, which Apple builds and tests on Darwin and Linux: the process
/// spawning this package wrote itself compiled on Linux only (a `posix_spawn_file_actions_t` is
/// a struct in glibc and a pointer in Darwin's `<spawn.h>`).
func runProgram(
  _ path: String, _ arguments: [String], input: [UInt8]? = nil, outputToStandardError: Bool = false
) async throws(CLIError) -> Int32 {
  let arguments = Arguments(
    executablePathOverride: arguments.first, remainingValues: Array(arguments.dropFirst()))
  let output: FileDescriptorOutput =
    outputToStandardError ? .currentStandardError : .currentStandardOutput
  let status: TerminationStatus
  do {
    if let input {
      // NB: A program that stops reading early must not stop this one with SIGPIPE. `signal`,
      // `SIGPIPE` and `SIG_IGN` are spelled alike in glibc's and Darwin's `<signal.h>`.
      // A write it cannot finish is not an error of ours: the program's status says what
      // happened (it ended before reading everything).
      let previous = signal(SIGPIPE, SIG_IGN)
      defer { signal(SIGPIPE, previous) }
      status = try await Subprocess.run(
        .path(.init(path)), arguments: arguments, input: .inputWriter, output: output,
        error: .currentStandardError
      ) { execution in
        _ = try? await execution.standardInputWriter.write(input)
        try? await execution.standardInputWriter.finish()
      }.terminationStatus
    } else {
      status = try await Subprocess.run(
        .path(.init(path)), arguments: arguments, input: .currentStandardInput, output: output,
        error: .currentStandardError
      ).terminationStatus
    }
  } catch {
    throw CLIError(message: "could not run \(path): \(error)")
  }
  switch status {
  case .exited(let code): return code
  case .signaled(let signal): return 128 + signal
  }
}
