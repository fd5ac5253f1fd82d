import Foundation

/// The names of computed properties in key paths, which the standard library does not read on
/// Linux: `\State.<computed 0x55b8d7193fe0 (String)>` is `\State.name` when the program has
/// its symbols.
///
/// A computed component's id is the address of its key path getter, a function the compiler
/// emits for the property (`key path getter for App.State.name : Swift.String : App.State`).
/// On Apple platforms the standard library names it from the symbol at that address; here the
/// program's own symbol table (`/proc/self/exe`'s `.symtab`, which a stripped release build
/// lacks) is read once, when the first such component is named, and each address looked up
/// in it. TCA's `@ObservableState` makes every property of a state computed (it keeps the value
/// in `_name`), so key paths into such states need this to read as the state's paths.
package enum ComputedPropertyNames {
  /// `description` with each `<computed 0x… (Type)>` component whose getter's symbol is found
  /// replaced by the property's name.
  package static func naming(_ description: String) -> String {
    guard description.contains("<computed 0x") else { return description }
    var result = ""
    var rest = Substring(description)
    while let start = rest.range(of: "<computed 0x") {
      result += rest[..<start.lowerBound]
      // NB: The component ends at the `>` after its type's parenthesis, which may hold `<>`
      // and parentheses of its own: `<computed 0x… (Optional<(Int, Int)>)>`.
      guard let end = rest.firstIndex(from: start.upperBound, outsideParentheses: { $0 == ">" })
      else { break }
      let component = rest[start.lowerBound...end]
      let hex = rest[start.upperBound...].prefix { $0.isHexDigit }
      if let address = UInt(hex, radix: 16), let name = self.name(ofGetterAt: address) {
        result += name
      } else {
        result += component
      }
      rest = rest[rest.index(after: end)...]
    }
    return result + rest
  }

  /// The name of the property whose key path getter is at `address`; `nil` when it cannot be
  /// known.
  package static func name(ofGetterAt address: UInt) -> String? {
    #if os(Linux)
      if let known = self.names.withLock({ $0[address] }) { return known }
      let name = self.symbols?.demangledName(at: address).flatMap(Self.property(inGetter:))
      self.names.withLock { $0[address] = .some(name) }
      return name
    #else
      return nil
    #endif
  }

  /// `name` from `key path getter for App.State.name : Swift.String : App.State`.
  package static func property(inGetter symbol: String) -> String? {
    let prefix = "key path getter for "
    guard symbol.hasPrefix(prefix) else { return nil }
    // NB: A private type reads `App.(State in _F662…)`: the declaration ends at ` : `.
    let rest = symbol.dropFirst(prefix.count)
    let declaration = rest.range(of: " : ").map { rest[..<$0.lowerBound] } ?? rest
    guard let name = declaration.split(separator: ".").last, !name.isEmpty,
      name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
    else { return nil }
    return String(name)
  }

  #if os(Linux)
    private static let names = Locked<[UInt: String?]>([:])
    private static let symbols: ExecutableSymbols? = ExecutableSymbols()
  #endif
}

#if os(Linux)
  /// This program's symbol table, read from its file.
  private struct ExecutableSymbols: Sendable {
    private let file: Data
    private let symbols: (offset: Int, count: Int)
    private let strings: Int
    /// What is added to a symbol's value to give its address in this process.
    private let bias: UInt

    init?() {
      guard
        let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
        let file = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped),
        file.count > 64, file.prefix(4) == Data([0x7F, 0x45, 0x4C, 0x46]), file[4] == 2  // ELF64
      else { return nil }
      func read<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T? {
        guard offset >= 0, offset + MemoryLayout<T>.size <= file.count else { return nil }
        var value = T.zero
        withUnsafeMutableBytes(of: &value) {
          _ = file.copyBytes(to: $0, from: offset..<offset + MemoryLayout<T>.size)
        }
        return T(littleEndian: value)
      }
      // NB: The section headers: the symbol table, and the string table it names.
      guard
        let sectionsOffset = read(UInt64.self, at: 0x28),
        let sectionSize = read(UInt16.self, at: 0x3A),
        let sectionCount = read(UInt16.self, at: 0x3C)
      else { return nil }
      var found: (offset: Int, count: Int, strings: Int)?
      for index in 0..<Int(sectionCount) {
        let header = Int(sectionsOffset) + index * Int(sectionSize)
        guard let type = read(UInt32.self, at: header + 4), type == 2,  // SHT_SYMTAB
          let offset = read(UInt64.self, at: header + 0x18),
          let size = read(UInt64.self, at: header + 0x20),
          let link = read(UInt32.self, at: header + 0x28)
        else { continue }
        let linked = Int(sectionsOffset) + Int(link) * Int(sectionSize)
        guard let strings = read(UInt64.self, at: linked + 0x18) else { return nil }
        found = (Int(offset), Int(size) / 24, Int(strings))
        break
      }
      guard let found else { return nil }
      // NB: The program is mapped where its first segment (file offset 0) begins.
      guard
        let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8),
        let line = maps.split(separator: "\n").first(where: { $0.hasSuffix(path) }),
        let start = line.split(separator: "-").first.flatMap({ UInt($0, radix: 16) }),
        let programOffset = read(UInt64.self, at: 0x20),
        let programSize = read(UInt16.self, at: 0x36),
        let programCount = read(UInt16.self, at: 0x38)
      else { return nil }
      var firstAddress: UInt64?
      for index in 0..<Int(programCount) {
        let header = Int(programOffset) + index * Int(programSize)
        guard let type = read(UInt32.self, at: header), type == 1,  // PT_LOAD
          let address = read(UInt64.self, at: header + 0x10)
        else { continue }
        firstAddress = address & ~0xFFF
        break
      }
      guard let firstAddress, start >= UInt(firstAddress) else { return nil }
      self.file = file
      self.symbols = (found.offset, found.count)
      self.strings = found.strings
      self.bias = start - UInt(firstAddress)
    }

    /// The demangled name of the function that starts at `address`.
    func demangledName(at address: UInt) -> String? {
      guard address >= self.bias else { return nil }
      let value = UInt64(address - self.bias)
      return self.file.withUnsafeBytes { bytes -> String? in
        for index in 0..<self.symbols.count {
          let symbol = self.symbols.offset + index * 24
          guard symbol + 24 <= bytes.count,
            bytes.loadUnaligned(fromByteOffset: symbol + 8, as: UInt64.self) == value,
            bytes[symbol + 4] & 0xF == 2  // STT_FUNC
          else { continue }
          let name =
            self.strings + Int(bytes.loadUnaligned(fromByteOffset: symbol, as: UInt32.self))
          guard name < bytes.count else { return nil }
          let end = bytes[name...].firstIndex(of: 0) ?? bytes.count
          let mangled = String(decoding: bytes[name..<end], as: UTF8.self)
          return demangle(mangled)
        }
        return nil
      }
    }
  }

  @_silgen_name("swift_demangle")
  private func _swiftDemangle(
    _ mangledName: UnsafePointer<CChar>?, _ mangledNameLength: Int,
    _ outputBuffer: UnsafeMutablePointer<CChar>?, _ outputBufferSize: UnsafeMutablePointer<Int>?,
    _ flags: UInt32
  ) -> UnsafeMutablePointer<CChar>?

  private func demangle(_ mangled: String) -> String? {
    mangled.withCString { name in
      guard let demangled = _swiftDemangle(name, strlen(name), nil, nil, 0) else { return nil }
      defer { free(demangled) }
      return String(cString: demangled)
    }
  }
#endif
