// The shims are `static inline` in the header; a C target needs a source file.
#include "TCATraceAtomicsShims.h"
