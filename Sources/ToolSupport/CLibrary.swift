// NB: The C library, for the programs' POSIX calls (terminals, files, sockets, signals), which
// are spelled alike in glibc and in Darwin's headers (`Tests/AvailabilityTests`' Darwin check
// reads them as Darwin would): this is the one place that names its module for each platform,
// and every program that imports `ToolSupport` has it.
#if canImport(Glibc)
  @_exported import Glibc
#elseif canImport(Musl)
  @_exported import Musl
#elseif canImport(Darwin)
  @_exported import Darwin
#endif
