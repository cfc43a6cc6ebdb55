// Small questions about elements and bins.
#ifndef REEL_ELEMENTS_H
#define REEL_ELEMENTS_H

// Whether `element` is, or (a bin) holds at any depth, an element made by the factory named
// `factory`. Transfer none.
int reel_element_has_factory(void *element, const char *factory);

#endif
