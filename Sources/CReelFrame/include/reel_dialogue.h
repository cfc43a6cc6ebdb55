// The dialogue boost: surround sound played on stereo with the centre channel (where films put
// the dialogue) raised. Elements are passed untyped.
#ifndef REEL_DIALOGUE_H
#define REEL_DIALOGUE_H

// On `audioconvert` (a GstElement*, followed by a stereo capsfilter): at each caps event of its
// sink pad, before it configures itself, a surround input (a front centre among 3 or more
// positioned channels) gets a mix matrix to stereo with `centre` of the centre channel in each
// side, `surround` of each rear or side channel on its own side, the fronts whole and the LFE
// left out, each row normalised so that it cannot clip; any other input goes back to
// audioconvert's own mix. The matrix is set only when the layout changes (setting it asks
// upstream to negotiate again).
void reel_dialogue_boost_attach(void *audioconvert, double centre, double surround);

#endif
