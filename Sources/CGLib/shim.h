// GLib's main loop for Swift (ReelGLib): nothing to shim yet, the functions import as they are.
// NOTE: SwiftPM does not rebuild Swift modules when only this header changes; see Makefile.
#ifndef REEL_CGLIB_SHIM_H
#define REEL_CGLIB_SHIM_H
#include <glib.h>
#endif
