#include "TCATraceFlightShims.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

int tcatrace_flight_create(const char *path, size_t size) {
  int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return -1;
  if (ftruncate(fd, (off_t)size) != 0) {
    int error = errno;
    close(fd);
    unlink(path);
    errno = error;
    return -1;
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
