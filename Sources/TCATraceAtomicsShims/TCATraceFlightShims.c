#include "TCATraceFlightShims.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

int tcatrace_flight_create(const char *path, size_t size) {
  int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return -1;
  // NB: Written, not only sized (`ftruncate` leaves a file sparse): a store into a mapped page
  // whose block the file system cannot find, the disk full, is a SIGBUS to the app.
  static const char zeros[16384];
  size_t written = 0;
  while (written < size) {
    size_t chunk = size - written < sizeof zeros ? size - written : sizeof zeros;
    ssize_t count = write(fd, zeros, chunk);
    if (count < 0 && errno == EINTR) continue;
    if (count <= 0) {
      int error = count < 0 ? errno : ENOSPC;
      close(fd);
      unlink(path);
      errno = error;
      return -1;
    }
    written += (size_t)count;
  }
  return fd;
}

void *tcatrace_flight_map(int fd, size_t size) {
  void *address = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  int error = errno;
  // NB: The mapping keeps the file; the descriptor is not needed any more.
  close(fd);
  if (address == MAP_FAILED) {
    errno = error;
    return NULL;
  }
  return address;
}

void tcatrace_flight_unmap(void *address, size_t size) {
  munmap(address, size);
}
