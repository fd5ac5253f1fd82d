#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// File names that are not UTF-8, carried in a `String`.
///
/// A file name is bytes; a `String` is Unicode. The bytes of a name that are not valid UTF-8
/// are carried as the private-use characters U+10FF80–U+10FFFF (byte `b` as U+10FF00 + `b`) and
/// become those bytes again when the file is opened, so that `tcatrace sessions $'x\xff.db'`
/// opens the file it names. (Python's `surrogateescape` does the same with surrogates, which a
/// `String` cannot hold.)
package enum FileName {
  /// The first private-use character that stands for a byte.
  static let firstByteScalar: UInt32 = 0x10FF80

  /// The program's arguments, without the program's name, each decoded as a file name.
  package static func arguments() -> [String] {
    (1..<Int(CommandLine.argc)).map { index in
      CommandLine.unsafeArgv[index].map { Self.decode(UnsafePointer($0)) } ?? ""
    }
  }

  /// The NUL-terminated bytes at `cString`, as a `String` that ``bytes(_:)`` turns back into
  /// them.
  package static func decode(_ cString: UnsafePointer<CChar>) -> String {
    let bytes = UnsafeBufferPointer(
      start: UnsafeRawPointer(cString).assumingMemoryBound(to: UInt8.self), count: strlen(cString))
    return Self.decode(bytes)
  }

  /// `bytes` as a `String` that ``bytes(_:)`` turns back into them.
  package static func decode(_ bytes: some Collection<UInt8>) -> String {
    let bytes = Array(bytes)
    var result = ""
    var index = 0
    while index < bytes.count {
      var parser = Unicode.UTF8.ForwardParser()
      var iterator = bytes[index...].makeIterator()
      switch parser.parseScalar(from: &iterator) {
      case let .valid(encoded):
        // NB: A name that holds the characters standing for bytes is not told apart from one
        // that holds the bytes; such names are not met in practice.
        result.unicodeScalars.append(Unicode.UTF8.decode(encoded))
        index += encoded.count
      case .error, .emptyInput:
        result.unicodeScalars.append(Unicode.Scalar(0x10FF00 + UInt32(bytes[index]))!)
        index += 1
      }
    }
    return result
  }

  /// The bytes of the file name `name`: its UTF-8, with the characters that stand for bytes
  /// turned back into them.
  package static func bytes(_ name: String) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(name.utf8.count)
    for scalar in name.unicodeScalars {
      if scalar.value >= Self.firstByteScalar {
        bytes.append(UInt8(truncatingIfNeeded: scalar.value - 0x10FF00))
      } else {
        bytes.append(contentsOf: String(scalar).utf8)
      }
    }
    return bytes
  }

  /// Calls `body` with the file name as a C string of its bytes.
  package static func withCString<Result>(
    _ name: String, _ body: (UnsafePointer<CChar>) throws -> Result
  ) rethrows -> Result {
    var bytes = Self.bytes(name)
    bytes.append(0)
    return try bytes.withUnsafeBufferPointer { buffer in
      try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
    }
  }
}
