#!/usr/bin/env bash
# Generates Reel's demo and test media with gst-launch-1.0 alone. Deterministic, cached: a file
# that exists is kept (delete the folder to regenerate). Never committed (see .gitignore).
#
#   make-media.sh [DIR] [--bench]      DIR defaults to Resources/media beside this script.
#
# The palette below is the contract the tests rely on: color10s.mp4 shows PALETTE[i] during
# second i (i = 0…9), full frame, with a 1 s keyframe interval.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-"$here/../media"}
bench=0
for a in "$@"; do [ "$a" = "--bench" ] && bench=1; done
[ "${1:-}" = "--bench" ] && dir="$here/../media"
mkdir -p "$dir"
cd "$dir"

# ARGB colors, one per second of color10s.mp4. Keep in sync with Tests/ReelTestSupport/TestMedia.swift.
PALETTE=(0xffff0000 0xff00ff00 0xff0000ff 0xffffff00 0xffff00ff 0xff00ffff 0xffffffff 0xff808080 0xffff8000 0xff8000ff)

V264="x264enc speed-preset=ultrafast tune=zerolatency key-int-max=30 bframes=0 threads=1 ! video/x-h264,profile=constrained-baseline ! h264parse"
AAC="audioconvert ! audioresample ! audio/x-raw,rate=44100,channels=2 ! avenc_aac ! aacparse"

# Every pipeline runs under a bound and is tried up to three times: a gst-launch that never sees EOS
# (hlssink2 in 1.22 hangs about one run in four after writing everything) must not stall make.
launch() {
  local try
  for try in 1 2 3; do
    if timeout -k 5 120 gst-launch-1.0 -q "$@" >/dev/null; then return 0; fi
    echo "make-media: gst-launch failed or hung (try $try): ${*: -1}" >&2
  done
  return 1
}

make_colors() {  # out seconds width height
  local out=$1 secs=$2 w=$3 h=$4 srcs="" i
  [ -s "$out" ] && return 0
  for ((i = 0; i < secs; i++)); do
    srcs+=" videotestsrc pattern=solid-color foreground-color=${PALETTE[$((i % 10))]} num-buffers=30 ! video/x-raw,format=I420,width=$w,height=$h,framerate=30/1 ! c."
  done
  launch concat name=c ! videoconvert ! video/x-raw,format=I420 ! $V264 ! queue ! mux. \
    audiotestsrc wave=sine freq=440 samplesperbuffer=1470 num-buffers=$((secs * 30)) ! $AAC ! queue ! mux. \
    mp4mux name=mux faststart=true ! filesink location="$out.tmp" $srcs
  mv "$out.tmp" "$out"
}

make_clip() {  # out seconds width height pattern
  local out=$1 secs=$2 w=$3 h=$4 pattern=$5
  [ -s "$out" ] && return 0
  launch videotestsrc pattern="$pattern" num-buffers=$((secs * 30)) ! video/x-raw,format=I420,width=$w,height=$h,framerate=30/1 \
    ! timeoverlay halignment=right valignment=bottom font-desc="Sans 24" ! videoconvert ! video/x-raw,format=I420 ! $V264 ! queue ! mux. \
    audiotestsrc wave=sine freq=330 samplesperbuffer=1470 num-buffers=$((secs * 30)) ! $AAC ! queue ! mux. \
    mp4mux name=mux faststart=true ! filesink location="$out.tmp"
  mv "$out.tmp" "$out"
}

# A 4:3 picture (480x360) for the aspect modes: red bands (45 rows) above and below a blue 16:9
# middle (480x270), so that fit shows black bars beside it, fill (cropped to 16:9) only blue, and
# stretch the red bands at the top and bottom of the area.
make_banded() {  # out seconds
  local out=$1 secs=$2
  [ -s "$out" ] && return 0
  launch compositor name=comp sink_1::ypos=45 ! video/x-raw,format=I420,width=480,height=360,framerate=30/1 ! videoconvert \
    ! video/x-raw,format=I420 ! $V264 ! queue ! mux. \
    videotestsrc pattern=solid-color foreground-color=0xffff0000 num-buffers=$((secs * 30)) ! video/x-raw,format=I420,width=480,height=360,framerate=30/1 ! comp. \
    videotestsrc pattern=solid-color foreground-color=0xff0000ff num-buffers=$((secs * 30)) ! video/x-raw,format=I420,width=480,height=270,framerate=30/1 ! comp. \
    audiotestsrc wave=sine freq=392 samplesperbuffer=1470 num-buffers=$((secs * 30)) ! $AAC ! queue ! mux. \
    mp4mux name=mux faststart=true ! filesink location="$out.tmp"
  mv "$out.tmp" "$out"
}

# Tracks: a dark 6 s picture (0x204060) with two audio tracks (English 440 Hz, French 660 Hz) and
# two text subtitle tracks (English "HELLO", French "BONJOUR", both from 1 s to 5 s), tagged with
# language and title.
make_tracks() {  # out [muxer]  (tracks.mkv: Matroska; tracks-tx3g.mp4: MP4, subtitles as tx3g timed text)
  local out=$1 muxer=${2:-matroskamux}
  [ -s "$out" ] && return 0
  printf '1\n00:00:01,000 --> 00:00:05,000\nHELLO\n' > tracks-en.srt.tmp
  printf '1\n00:00:01,000 --> 00:00:05,000\nBONJOUR\n' > tracks-fr.srt.tmp
  # shellcheck disable=SC2086
  launch $muxer name=mux ! filesink location="$out.tmp" \
    videotestsrc pattern=solid-color foreground-color=0xff204060 num-buffers=180 ! video/x-raw,format=I420,width=640,height=360,framerate=30/1 ! $V264 ! queue ! mux. \
    audiotestsrc wave=sine freq=440 samplesperbuffer=1470 num-buffers=180 ! $AAC ! taginject tags="language-code=en,title=English" ! queue ! mux. \
    audiotestsrc wave=sine freq=660 samplesperbuffer=1470 num-buffers=180 ! $AAC ! taginject tags="language-code=fr,title=French" ! queue ! mux. \
    filesrc location=tracks-en.srt.tmp ! subparse ! text/x-raw,format=utf8 ! taginject tags="language-code=en,title=English" ! queue ! mux. \
    filesrc location=tracks-fr.srt.tmp ! subparse ! text/x-raw,format=utf8 ! taginject tags="language-code=fr,title=French" ! queue ! mux.
  rm -f tracks-en.srt.tmp tracks-fr.srt.tmp
  mv "$out.tmp" "$out"
}

# External subtitles: subs/film.mp4, a dark 6 s picture (0x204060) with subtitle files beside it
# as players find them — film.en.srt (SubRip, CRLF, a tag), film.fr.vtt (WebVTT) and
# Subs/film.de.ass (SubStation Alpha) — each saying something of a different width from 1 s to
# 3 s (HI, BONJOUR TOUT LE MONDE, HALLO WELT), so a frame shows which file is drawn.
make_sidecars() {
  mkdir -p subs/Subs
  if [ ! -s subs/film.mp4 ]; then
    launch videotestsrc pattern=solid-color foreground-color=0xff204060 num-buffers=180 ! video/x-raw,format=I420,width=640,height=360,framerate=30/1 \
      ! $V264 ! queue ! mux. audiotestsrc wave=sine freq=440 samplesperbuffer=1470 num-buffers=180 ! $AAC ! queue ! mux. \
      mp4mux name=mux faststart=true ! filesink location=subs/film.mp4.tmp
    mv subs/film.mp4.tmp subs/film.mp4
  fi
  printf '1\r\n00:00:01,000 --> 00:00:03,000\r\n<b>HI</b>\r\n\r\n2\r\n00:00:04,000 --> 00:00:05,500\r\nA second cue\r\n' > subs/film.en.srt
  printf 'WEBVTT\n\nNOTE made by make-media.sh\n\n1\n00:01.000 --> 00:03.000 align:center\nBONJOUR TOUT LE MONDE\n' > subs/film.fr.vtt
  printf '[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:01.00,0:00:03.00,Default,,0,0,0,,{\\an2}HALLO WELT\n' > subs/Subs/film.de.ass
}

# Two short MP4s with English and French audio (440/660 Hz), for a gapless switch that keeps the
# chosen language: tracks-1.mp4, tracks-2.mp4 (2 s each; other files, so other stream ids).
make_tracks_mp4() {  # out
  local out=$1
  [ -s "$out" ] && return 0
  launch mp4mux name=mux faststart=true ! filesink location="$out.tmp" \
    videotestsrc pattern=solid-color foreground-color=0xff204060 num-buffers=60 ! video/x-raw,format=I420,width=320,height=180,framerate=30/1 ! $V264 ! queue ! mux. \
    audiotestsrc wave=sine freq=440 samplesperbuffer=1470 num-buffers=60 ! $AAC ! taginject tags="language-code=en" ! queue ! mux. \
    audiotestsrc wave=sine freq=660 samplesperbuffer=1470 num-buffers=60 ! $AAC ! taginject tags="language-code=fr" ! queue ! mux.
  mv "$out.tmp" "$out"
}

make_audio() {  # out seconds
  local out=$1 secs=$2
  [ -s "$out" ] && return 0
  launch audiotestsrc wave=sine freq=523 samplesperbuffer=1470 num-buffers=$((secs * 30)) ! $AAC ! mp4mux faststart=true ! filesink location="$out.tmp"
  mv "$out.tmp" "$out"
}

# --- test media ---------------------------------------------------------------------------------
make_colors color10s.mp4 10 640 360
make_clip clip2s.mp4 2 640 360 smpte
# A minute of color10s.mp4's palette, round and round (the bench's seek lane and the tests that need
# an item still playing after a minute of waiting on a busy machine).
make_colors long60s.mp4 60 640 360
make_banded banded4x3.mp4 4
# 2.7 MB of 1080p: a progressive download big enough to start playing before it is all there
# (BufferingTests, TeardownTests); the benchmarks use it too.
make_clip hd10s.mp4 10 1920 1080 smpte
make_tracks tracks.mkv
make_tracks tracks-tx3g.mp4 "mp4mux faststart=true"
make_sidecars
make_tracks_mp4 tracks-1.mp4
make_tracks_mp4 tracks-2.mp4
make_audio tone3s.m4a 3
# Bad inputs: a zero-byte file, text with a media extension, a damaged container (the moov atom
# overwritten), a truncated file (the tail cut off mid-mdat).
[ -e empty.mp4 ] || : > empty.mp4
[ -s notmedia.mp4 ] || printf 'This is a text file, not a video.\n%.0s' {1..64} > notmedia.mp4
if [ ! -s corrupt.mp4 ]; then
  cp color10s.mp4 corrupt.mp4.tmp
  printf 'garbage!%.0s' {1..256} | dd of=corrupt.mp4.tmp bs=1 seek=40 conv=notrunc status=none
  mv corrupt.mp4.tmp corrupt.mp4
fi
[ -s truncated.mp4 ] || head -c 60000 color10s.mp4 > truncated.mp4
# A phone's portrait video, as phones store it: a 320x180 landscape picture (red left half, blue
# right) with a display matrix that turns it a quarter (ffmpeg's rotate metadata, a test-media
# tool here). Players show it 180x320 (ffmpeg decodes it so: blue on top, red below).
if [ ! -s portrait.mp4 ]; then
  timeout -k 5 120 ffmpeg -nostdin -hide_banner -loglevel error -y -f lavfi \
    -i "color=c=red:s=160x180:d=2:r=30[a];color=c=blue:s=160x180:d=2:r=30[b];[a][b]hstack" \
    -c:v libx264 -pix_fmt yuv420p -f mp4 portrait.mp4.flat
  timeout -k 5 60 ffmpeg -nostdin -hide_banner -loglevel error -y -i portrait.mp4.flat -c copy -metadata:s:v:0 rotate=90 -f mp4 portrait.mp4.tmp
  rm -f portrait.mp4.flat
  mv portrait.mp4.tmp portrait.mp4
fi
# Keyframes 10 s apart (30 s of testsrc2, 320x180, one keyframe each 300 frames): a seek lands
# between them, so an exact seek must decode from the keyframe before it (`reel check
# --scenario seek-storm`: each frame's time is its target's, not its keyframe's).
[ -s gop10s.mp4 ] || { timeout -k 5 120 ffmpeg -nostdin -hide_banner -loglevel error -y -f lavfi -i "testsrc2=size=320x180:rate=30:duration=30" \
    -f lavfi -i "sine=frequency=440:duration=30:sample_rate=44100" -c:v libx264 -preset ultrafast -pix_fmt yuv420p -g 300 -keyint_min 300 \
    -sc_threshold 0 -bf 0 -threads 2 -c:a aac -b:a 64k -ac 2 -movflags +faststart -f mp4 gop10s.mp4.tmp && mv gop10s.mp4.tmp gop10s.mp4; }
# The same picture stored to be shown as it is (no display matrix): landscape.mp4, red left, blue
# right, 320x180; after a portrait video in one queue it must not be turned too.
[ -s landscape.mp4 ] || { timeout -k 5 120 ffmpeg -nostdin -hide_banner -loglevel error -y -f lavfi \
    -i "color=c=red:s=160x180:d=2:r=30[a];color=c=blue:s=160x180:d=2:r=30[b];[a][b]hstack" \
    -c:v libx264 -pix_fmt yuv420p -f mp4 landscape.mp4.tmp && mv landscape.mp4.tmp landscape.mp4; }
# color10s.mp4's pictures and sound in Matroska with three chapters, as a film has them
# (matroskademux posts a table of contents): "Opening" at 0, "Middle part" at 3, an untitled one
# at 6.5 s. The same with MP4 chapters (chapters.mp4: qtdemux in 1.22 reads none).
if [ ! -s chapters.mkv ] || [ ! -s chapters.mp4 ]; then
  printf ';FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=3000\ntitle=Opening\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=3000\nEND=6500\ntitle=Middle part\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=6500\nEND=10000\n' > chapters.txt
  timeout -k 5 60 ffmpeg -nostdin -hide_banner -loglevel error -y -i color10s.mp4 -i chapters.txt -map 0 -map_chapters 1 -c copy -f matroska chapters.mkv.tmp
  timeout -k 5 60 ffmpeg -nostdin -hide_banner -loglevel error -y -i color10s.mp4 -i chapters.txt -map 0 -map_chapters 1 -c copy -f mp4 chapters.mp4.tmp
  mv chapters.mkv.tmp chapters.mkv
  mv chapters.mp4.tmp chapters.mp4
  rm -f chapters.txt
fi
# An MP3 with its cover art (ID3 APIC, a 64x64 green PNG), as music files have: Reel's window
# shows the cover where a video would be.
if [ ! -s cover.mp3 ]; then
  timeout -k 5 120 ffmpeg -nostdin -hide_banner -loglevel error -y -f lavfi -i "sine=frequency=440:duration=3" \
    -f lavfi -i "color=c=0x00ff00:s=64x64:d=1" -map 0:a -map 1:v -frames:v 1 -c:a libmp3lame -b:a 64k -c:v png \
    -disposition:v attached_pic -id3v2_version 3 -metadata title="Cover song" -f mp3 cover.mp3.tmp
  mv cover.mp3.tmp cover.mp3
fi
# Twenty 1 s clips for gapless transitions (each a different color).
for i in $(seq -w 0 19); do
  [ -s "gapless-$i.mp4" ] && continue
  launch videotestsrc pattern=solid-color foreground-color=${PALETTE[$((10#$i % 10))]} num-buffers=30 ! video/x-raw,format=I420,width=320,height=180,framerate=30/1 \
    ! $V264 ! queue ! mux. audiotestsrc wave=sine freq=$((300 + 10#$i * 20)) samplesperbuffer=1470 num-buffers=30 ! $AAC ! queue ! mux. \
    mp4mux name=mux faststart=true ! filesink location="gapless-$i.mp4.tmp"
  mv "gapless-$i.mp4.tmp" "gapless-$i.mp4"
done

# --- HLS (protected streams, issue 5) ------------------------------------------------------------
# hlssink (not hlssink2: its EOS sometimes never reaches the bus in 1.22, and gst-launch hangs).
# hls/vod/master.m3u8: two variants (hi 640x360, lo 320x180), 6 s each, 2 s MPEG-TS segments; BANDWIDTH
# declares the measured peak (reel check measures it) with a few per cent to spare.
# hls/aes/index.m3u8: the hi variant's segments encrypted with AES-128 (openssl), key hls/aes/key.bin,
# IV = the media sequence number (no IV attribute). hls/live: 12 s of segments that the tests'
# server reveals by wall clock as a sliding-window live playlist (no live encoder).
make_hls_variant() {  # dir width height pattern [seconds] [audio wave] [overlay: clock|none]
  local out=$1 w=$2 h=$3 pattern=$4 secs=${5:-6} wave=${6:-sine} overlay="timeoverlay font-desc=\"Sans 16\""
  [ "${7:-clock}" = none ] && overlay=identity
  [ -s "$out/index.m3u8" ] && return 0
  rm -rf "$out.tmp" && mkdir -p "$out.tmp"
  launch videotestsrc pattern="$pattern" num-buffers=$((secs * 30)) ! video/x-raw,format=I420,width=$w,height=$h,framerate=30/1 \
    ! $overlay ! videoconvert ! video/x-raw,format=I420 ! $V264 ! queue ! mux. \
    audiotestsrc wave=$wave freq=440 samplesperbuffer=1470 num-buffers=$((secs * 30)) ! $AAC ! queue ! mux. \
    mpegtsmux name=mux ! hlssink target-duration=2 max-files=0 playlist-length=0 \
      location="$out.tmp/segment%05d.ts" playlist-location="$out.tmp/index.m3u8"
  rm -rf "$out" && mv "$out.tmp" "$out"
}
make_hls_variant hls/vod/hi 640 360 smpte
make_hls_variant hls/vod/lo 320 180 ball
make_hls_variant hls/live 320 180 ball 12   # served as a sliding window by the tests
# hls/live-pairs: three encodes of 4 s (two segments each), their timestamps starting again at
# each: what an ad break's DISCONTINUITY joins (served with --fault discontinuity-every:2).
if [ ! -s hls/live-pairs/c-segment00001.ts ]; then
  for pair in a b c; do make_hls_variant "hls/live-pairs.$pair" 320 180 ball 4; done
  rm -rf hls/live-pairs.tmp && mkdir -p hls/live-pairs.tmp
  for pair in a b c; do
    for f in "hls/live-pairs.$pair"/*.ts; do cp "$f" "hls/live-pairs.tmp/$pair-$(basename "$f")"; done
    rm -rf "hls/live-pairs.$pair"
  done
  rm -rf hls/live-pairs && mv hls/live-pairs.tmp hls/live-pairs
fi
if ! grep -qs 'FRAME-RATE=30.000' hls/vod/master.m3u8; then
  printf '%s\n' '#EXTM3U' '#EXT-X-VERSION:3' \
    '#EXT-X-STREAM-INF:BANDWIDTH=2800000,RESOLUTION=640x360,FRAME-RATE=30.000,CODECS="avc1.42c01e,mp4a.40.2"' 'hi/index.m3u8' \
    '#EXT-X-STREAM-INF:BANDWIDTH=520000,RESOLUTION=320x180,FRAME-RATE=30.000,CODECS="avc1.42c00d,mp4a.40.2"' 'lo/index.m3u8' > hls/vod/master.m3u8.tmp
  mv hls/vod/master.m3u8.tmp hls/vod/master.m3u8
fi
# hls/renditions/master.m3u8: what `reel check --renditions all` must flag: a black rendition, a
# silent one, and the good low one declared with the wrong aspect ratio (beside the good one).
make_hls_variant hls/renditions/black 320 180 black 4 sine none
make_hls_variant hls/renditions/silent 320 180 ball 4 silence
if [ ! -s hls/renditions/master.m3u8 ]; then
  printf '%s\n' '#EXTM3U' \
    '#EXT-X-STREAM-INF:BANDWIDTH=520000,RESOLUTION=320x180,FRAME-RATE=30.000,CODECS="avc1.42c00d,mp4a.40.2"' '../vod/lo/index.m3u8' \
    '#EXT-X-STREAM-INF:BANDWIDTH=520000,RESOLUTION=320x180,FRAME-RATE=30.000,CODECS="avc1.42c00d,mp4a.40.2"' 'black/index.m3u8' \
    '#EXT-X-STREAM-INF:BANDWIDTH=520000,RESOLUTION=320x180,FRAME-RATE=30.000,CODECS="avc1.42c00d,mp4a.40.2"' 'silent/index.m3u8' \
    '#EXT-X-STREAM-INF:BANDWIDTH=520000,RESOLUTION=320x240,FRAME-RATE=30.000,CODECS="avc1.42c00d,mp4a.40.2"' '../vod/lo/index.m3u8' \
    > hls/renditions/master.m3u8.tmp
  mv hls/renditions/master.m3u8.tmp hls/renditions/master.m3u8
fi
# hls/subs/master.m3u8: a dark 6 s variant with two WebVTT subtitle renditions (English "HELLO
# ZERO/ONE/TWO", French "BONJOUR …", one cue per 2 s segment, at 0.5, 2.1 and 4.1 s). The cue
# times map onto the MPEG-TS timestamps (X-TIMESTAMP-MAP): mpegtsmux starts its PTS at 1 h.
make_hls_variant hls/subs/dark 320 180 black 6 sine none
if [ ! -s hls/subs/master.m3u8 ]; then
  for lang in en fr; do
    word=HELLO; [ $lang = fr ] && word=BONJOUR
    printf '%s\n' '#EXTM3U' '#EXT-X-VERSION:3' '#EXT-X-TARGETDURATION:2' '#EXT-X-MEDIA-SEQUENCE:0' '#EXT-X-PLAYLIST-TYPE:VOD' \
      '#EXTINF:2,' "$lang-0.vtt" '#EXTINF:2,' "$lang-1.vtt" '#EXTINF:2,' "$lang-2.vtt" '#EXT-X-ENDLIST' > hls/subs/$lang.m3u8
    i=0
    for cue in "00:00:00.500 --> 00:00:01.900|ZERO" "00:00:02.100 --> 00:00:03.900|ONE" "00:00:04.100 --> 00:00:05.500|TWO"; do
      printf 'WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:324000000,LOCAL:00:00:00.000\n\n%s\n%s %s\n' "${cue%%|*}" "$word" "${cue##*|}" > hls/subs/$lang-$i.vtt
      i=$((i + 1))
    done
  done
  printf '%s\n' '#EXTM3U' '#EXT-X-VERSION:3' \
    '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",LANGUAGE="en",NAME="English",DEFAULT=YES,AUTOSELECT=YES,URI="en.m3u8"' \
    '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",LANGUAGE="fr",NAME="Français",DEFAULT=NO,AUTOSELECT=YES,URI="fr.m3u8"' \
    '#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=320x180,FRAME-RATE=30.000,CODECS="avc1.42c00d,mp4a.40.2",SUBTITLES="subs"' 'dark/index.m3u8' \
    > hls/subs/master.m3u8.tmp
  mv hls/subs/master.m3u8.tmp hls/subs/master.m3u8
fi
# hls/vod30/master.m3u8: the same two renditions over 30 s (the metered cap flipped mid-stream).
make_hls_variant hls/vod30/hi 640 360 smpte 30
make_hls_variant hls/vod30/lo 320 180 ball 30
if ! cmp -s hls/vod/master.m3u8 hls/vod30/master.m3u8; then
  cp hls/vod/master.m3u8 hls/vod30/master.m3u8.tmp && mv hls/vod30/master.m3u8.tmp hls/vod30/master.m3u8
fi
if [ ! -s hls/aes/index.m3u8 ]; then
  rm -rf hls/aes.tmp && mkdir -p hls/aes.tmp
  key=000102030405060708090a0b0c0d0e0f
  printf '%s' "$key" | xxd -r -p > hls/aes.tmp/key.bin
  seq=0
  for f in hls/vod/hi/segment*.ts; do
    openssl enc -aes-128-cbc -K "$key" -iv "$(printf '%032x' "$seq")" -in "$f" -out "hls/aes.tmp/$(basename "$f")"
    seq=$((seq + 1))
  done
  # The same playlist with a key line before the first segment (media sequence 0, so IV = index).
  awk '/^#EXTINF/ && !done { print "#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\""; done=1 } { print }' hls/vod/hi/index.m3u8 > hls/aes.tmp/index.m3u8
  rm -rf hls/aes && mv hls/aes.tmp hls/aes
fi

# --- demo media ---------------------------------------------------------------------------------
make_clip demo-smpte.mp4 8 1280 720 smpte
make_clip demo-ball.mp4 6 1280 720 ball
make_colors demo-colors.mp4 6 1280 720

# --- adaptive quality (issue 14) -----------------------------------------------------------------
# hls/abr/master.m3u8: 360p, 720p and 1080p of one 60 s programme at about 0.6, 2 and 5 Mbit/s
# (constant bitrate: x264's CBR with filler, so every 2 s segment weighs what BANDWIDTH says and a
# throttled server's schedule translates into download times), 2 s MPEG-TS segments, 2 s GOPs.
# BANDWIDTH is each rendition's measured peak segment bitrate, rounded up to 10 kbit/s.
make_abr_variant() {  # dir width height video-kbit/s
  local out=$1 w=$2 h=$3 kbps=$4
  [ -s "$out/index.m3u8" ] && return 0
  rm -rf "$out.tmp" && mkdir -p "$out.tmp"
  launch videotestsrc pattern=smpte num-buffers=1800 ! video/x-raw,format=I420,width=$w,height=$h,framerate=30/1 \
    ! timeoverlay font-desc="Sans $((h / 20))" ! videoconvert ! video/x-raw,format=I420 \
    ! x264enc speed-preset=ultrafast tune=zerolatency key-int-max=60 bframes=0 threads=2 pass=cbr bitrate=$kbps \
      vbv-buf-capacity=1000 option-string="nal-hrd=cbr:filler=1" ! video/x-h264,profile=constrained-baseline ! h264parse \
    ! queue ! mux. audiotestsrc wave=sine freq=440 samplesperbuffer=1470 num-buffers=1800 ! $AAC ! queue ! mux. \
    mpegtsmux name=mux ! hlssink target-duration=2 max-files=0 playlist-length=0 \
      location="$out.tmp/segment%05d.ts" playlist-location="$out.tmp/index.m3u8"
  rm -rf "$out" && mv "$out.tmp" "$out"
}
# Peak bits per second over the segments of a variant (the playlist's EXTINF durations).
peak_bandwidth() {  # dir
  awk -v d="$1" '/^#EXTINF:/ { sub("#EXTINF:", ""); sub(",.*", ""); dur = $0; next }
    /^[^#]/ { cmd = "stat -c %s " d "/" $0; cmd | getline size; close(cmd); r = size * 8 / dur; if (r > peak) peak = r }
    END { printf "%d\n", int((peak + 9999) / 10000) * 10000 }' "$1/index.m3u8"
}
make_abr_variant hls/abr/360 640 360 380
make_abr_variant hls/abr/720 1280 720 1750
make_abr_variant hls/abr/1080 1920 1080 4400
if [ ! -s hls/abr/master.m3u8 ]; then
  printf '%s\n' '#EXTM3U' '#EXT-X-VERSION:3' \
    "#EXT-X-STREAM-INF:BANDWIDTH=$(peak_bandwidth hls/abr/360),RESOLUTION=640x360,FRAME-RATE=30.000,CODECS=\"avc1.42c01e,mp4a.40.2\"" '360/index.m3u8' \
    "#EXT-X-STREAM-INF:BANDWIDTH=$(peak_bandwidth hls/abr/720),RESOLUTION=1280x720,FRAME-RATE=30.000,CODECS=\"avc1.42c01f,mp4a.40.2\"" '720/index.m3u8' \
    "#EXT-X-STREAM-INF:BANDWIDTH=$(peak_bandwidth hls/abr/1080),RESOLUTION=1920x1080,FRAME-RATE=30.000,CODECS=\"avc1.42c028,mp4a.40.2\"" '1080/index.m3u8' \
    > hls/abr/master.m3u8.tmp
  mv hls/abr/master.m3u8.tmp hls/abr/master.m3u8
fi

# --- streams as real packagers write them (issue 27) --------------------------------------------
# ffmpeg 5.1's HLS muxer (a test-media tool here, never a runtime dependency): one 20 s programme
# (testsrc2 with its frame counter, a 440 Hz tone) as 360p and 720p, 2 s segments, 2 s GOPs.
#   hls/ffmpeg/ts:    MPEG-TS segments; master.m3u8 is ffmpeg's own (-master_pl_name: BANDWIDTH,
#                     RESOLUTION, CODECS; no AVERAGE-BANDWIDTH). Beside it, masters written the way
#                     RFC 8216 and Apple's authoring spec describe, for the same variants:
#                     avg.m3u8 (BANDWIDTH, AVERAGE-BANDWIDTH, CODECS, RESOLUTION, FRAME-RATE; 360p
#                     first, the issue's master), avg-desc.m3u8 (the same, highest first, with an
#                     I-frame playlist per variant), missing.m3u8 (avg.m3u8 plus a 1080p variant that
#                     answers 404).
#   hls/ffmpeg/fmp4:  fMP4 segments (-hls_segment_type fmp4: EXT-X-MAP), avg.m3u8 as above.
#   hls/ffmpeg/range: one file per variant, byte-range segments (-hls_flags single_file), avg.m3u8.
#   hls/ffmpeg/audio: video-only variants and an alternate audio rendition (EXT-X-MEDIA
#                     TYPE=AUDIO, one GROUP-ID: -var_stream_map agroup), ffmpeg's master.
ffmpeg_hls() {  # dir extra-args...
  local out=$1; shift
  [ -s "$out/master.m3u8" ] && return 0
  rm -rf "$out.tmp" && mkdir -p "$out.tmp"
  (cd "$out.tmp" && timeout -k 5 300 ffmpeg -nostdin -hide_banner -loglevel error \
    -f lavfi -i "testsrc2=size=1280x720:rate=30:duration=20" -f lavfi -i "sine=frequency=440:duration=20:sample_rate=44100" \
    -filter_complex "[0:v]split=2[a][b];[a]scale=640:360[v360];[b]null[v720]" \
    -map "[v360]" -map "[v720]" -map 1:a -map 1:a \
    -c:v libx264 -preset ultrafast -pix_fmt yuv420p -g 60 -keyint_min 60 -sc_threshold 0 -threads 2 \
    -b:v:0 900k -maxrate:v:0 1000k -bufsize:v:0 1000k -b:v:1 2600k -maxrate:v:1 2800k -bufsize:v:1 2800k \
    -c:a aac -b:a 96k -ac 2 \
    -f hls -hls_time 2 -hls_playlist_type vod -master_pl_name master.m3u8 \
    -var_stream_map "v:0,a:0,name:360p v:1,a:1,name:720p" "$@" "%v/index.m3u8")
  rm -rf "$out" && mv "$out.tmp" "$out"
}
spec_master() {  # dir [desc] [missing]: the variants of DIR under a master as the specs write it
  local dir=$1 order=${2:-asc} extra=${3:-}
  local lo='#EXT-X-STREAM-INF:BANDWIDTH=1249072,AVERAGE-BANDWIDTH=1057312,CODECS="avc1.42C01E,mp4a.40.2",RESOLUTION=640x360,FRAME-RATE=30.000'
  local hi='#EXT-X-STREAM-INF:BANDWIDTH=3374976,AVERAGE-BANDWIDTH=2837596,CODECS="avc1.42C01F,mp4a.40.2",RESOLUTION=1280x720,FRAME-RATE=30.000'
  printf '%s\n' '#EXTM3U' '#EXT-X-VERSION:6' '#EXT-X-INDEPENDENT-SEGMENTS'
  if [ "$order" = desc ]; then
    printf '%s\n' "$hi" 720p/index.m3u8 "$lo" 360p/index.m3u8 \
      '#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=420000,AVERAGE-BANDWIDTH=380000,CODECS="avc1.42C01F",RESOLUTION=1280x720,URI="720p/iframes.m3u8"' \
      '#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=150000,AVERAGE-BANDWIDTH=130000,CODECS="avc1.42C01E",RESOLUTION=640x360,URI="360p/iframes.m3u8"'
  else
    printf '%s\n' "$lo" 360p/index.m3u8 "$hi" 720p/index.m3u8
  fi
  if [ "$extra" = missing ]; then
    printf '%s\n' '#EXT-X-STREAM-INF:BANDWIDTH=6500000,AVERAGE-BANDWIDTH=5400000,CODECS="avc1.640028,mp4a.40.2",RESOLUTION=1920x1080,FRAME-RATE=30.000' 1080p/index.m3u8
  fi
}
# An I-frame playlist for a TS variant whose segments each start with their keyframe: the first
# 188-byte-aligned part of every segment (the keyframe's size is not needed for a valid listing).
iframe_playlist() {  # variant-dir
  awk -v d="$1" 'BEGIN { print "#EXTM3U"; print "#EXT-X-VERSION:4"; print "#EXT-X-TARGETDURATION:2"; print "#EXT-X-PLAYLIST-TYPE:VOD"; print "#EXT-X-I-FRAMES-ONLY" }
    /^#EXTINF:/ { dur = $0; next }
    /^[^#]/ { cmd = "stat -c %s " d "/" $0; cmd | getline size; close(cmd); n = size < 37600 ? size - size % 188 : 37600
              print dur; print "#EXT-X-BYTERANGE:" n "@0"; print $0 }
    END { print "#EXT-X-ENDLIST" }' "$1/index.m3u8"
}
if command -v ffmpeg >/dev/null; then
  ffmpeg_hls hls/ffmpeg/ts -hls_segment_filename "%v/seg%03d.ts"
  ffmpeg_hls hls/ffmpeg/fmp4 -hls_segment_type fmp4 -hls_fmp4_init_filename init.mp4 -hls_segment_filename "%v/seg%03d.m4s"
  ffmpeg_hls hls/ffmpeg/range -hls_flags single_file -hls_segment_filename "%v/all.ts"
  if [ ! -s hls/ffmpeg/audio/master.m3u8 ]; then
    rm -rf hls/ffmpeg/audio.tmp && mkdir -p hls/ffmpeg/audio.tmp
    (cd hls/ffmpeg/audio.tmp && timeout -k 5 300 ffmpeg -nostdin -hide_banner -loglevel error \
      -f lavfi -i "testsrc2=size=1280x720:rate=30:duration=20" -f lavfi -i "sine=frequency=440:duration=20:sample_rate=44100" \
      -filter_complex "[0:v]split=2[a][b];[a]scale=640:360[v360];[b]null[v720]" -map "[v360]" -map "[v720]" -map 1:a \
      -c:v libx264 -preset ultrafast -pix_fmt yuv420p -g 60 -keyint_min 60 -sc_threshold 0 -threads 2 -b:v:0 900k -b:v:1 2600k \
      -c:a aac -b:a 96k -ac 2 -f hls -hls_time 2 -hls_playlist_type vod -master_pl_name master.m3u8 -hls_segment_filename "%v/seg%03d.ts" \
      -var_stream_map "a:0,agroup:aud,default:yes,language:en,name:audio v:0,agroup:aud,name:360p v:1,agroup:aud,name:720p" "%v/index.m3u8")
    rm -rf hls/ffmpeg/audio && mv hls/ffmpeg/audio.tmp hls/ffmpeg/audio
  fi
  # hls/ffmpeg/langs: one 360p video-only variant and three audio renditions in one group, two of
  # them in one language (16 s: 440 Hz main, 660 Hz commentary, 880 Hz Spanish). master.m3u8 is
  # ffmpeg's own (NAME="audio_N", LANGUAGE en, en, es); spec.m3u8 writes the same renditions as
  # Apple's authoring spec does (NAME "English", "English (Commentary)", "Español"; LANGUAGE as
  # BCP 47 tags: en-US, en-US, es-419; AUTOSELECT, CHANNELS).
  if [ ! -s hls/ffmpeg/langs/spec.m3u8 ]; then
    rm -rf hls/ffmpeg/langs.tmp && mkdir -p hls/ffmpeg/langs.tmp
    (cd hls/ffmpeg/langs.tmp && timeout -k 5 300 ffmpeg -nostdin -hide_banner -loglevel error \
      -f lavfi -i "testsrc2=size=640x360:rate=30:duration=16" -f lavfi -i "sine=frequency=440:duration=16" \
      -f lavfi -i "sine=frequency=660:duration=16" -f lavfi -i "sine=frequency=880:duration=16" \
      -map 0:v -map 1:a -map 2:a -map 3:a -c:v libx264 -preset ultrafast -pix_fmt yuv420p -g 60 -keyint_min 60 -sc_threshold 0 \
      -threads 2 -b:v 500k -c:a aac -b:a 64k -ac 2 -f hls -hls_time 2 -hls_playlist_type vod -master_pl_name master.m3u8 \
      -hls_segment_filename "%v/seg%03d.ts" \
      -var_stream_map "a:0,agroup:aud,default:yes,language:en,name:main a:1,agroup:aud,language:en,name:commentary a:2,agroup:aud,language:es,name:spanish v:0,agroup:aud,name:video" \
      "%v/index.m3u8")
    printf '%s\n' '#EXTM3U' '#EXT-X-VERSION:4' '#EXT-X-INDEPENDENT-SEGMENTS' \
      '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="stereo",LANGUAGE="en-US",NAME="English",AUTOSELECT=YES,DEFAULT=YES,CHANNELS="2",URI="main/index.m3u8"' \
      '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="stereo",LANGUAGE="en-US",NAME="English (Commentary)",AUTOSELECT=NO,DEFAULT=NO,CHANNELS="2",URI="commentary/index.m3u8"' \
      '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="stereo",LANGUAGE="es-419",NAME="Español",AUTOSELECT=YES,DEFAULT=NO,CHANNELS="2",URI="spanish/index.m3u8"' \
      '#EXT-X-STREAM-INF:BANDWIDTH=700000,AVERAGE-BANDWIDTH=620000,CODECS="avc1.42c01e,mp4a.40.2",RESOLUTION=640x360,FRAME-RATE=30.000,AUDIO="stereo"' \
      'video/index.m3u8' > hls/ffmpeg/langs.tmp/spec.m3u8
    rm -rf hls/ffmpeg/langs && mv hls/ffmpeg/langs.tmp hls/ffmpeg/langs
  fi
  # radio.mp3: an internet radio's stream, 10 s of MP3 frames at 64 kbit/s (8000 bytes a second),
  # no ID3 tag or Xing header (as Shoutcast/Icecast servers send them).
  [ -s radio.mp3 ] || { timeout -k 5 60 ffmpeg -nostdin -hide_banner -loglevel error -y -f lavfi -i "sine=frequency=440:duration=10" \
    -c:a libmp3lame -b:a 64k -ac 1 -id3v2_version 0 -write_xing 0 -f mp3 radio.mp3.tmp && mv radio.mp3.tmp radio.mp3; }
  # hls/packed: audio-only playlists of bare packed audio, as a generic segmenter cuts them (ffmpeg's
  # segment muxer: ADTS AAC and MP3 frames, no ID3 timestamp), 8 s in 2 s segments: aac/index.m3u8
  # and mp3/index.m3u8.
  for f in aac:adts:aac mp3:mp3:libmp3lame; do
    name=${f%%:*}; rest=${f#*:}; format=${rest%%:*}; codec=${rest#*:}
    [ -s hls/packed/$name/index.m3u8 ] && continue
    rm -rf hls/packed/$name.tmp && mkdir -p hls/packed/$name.tmp
    (cd hls/packed/$name.tmp && timeout -k 5 120 ffmpeg -nostdin -hide_banner -loglevel error -f lavfi -i "sine=frequency=440:duration=8" \
      -c:a $codec -b:a 64k -f segment -segment_time 2 -segment_format $format -segment_list index.m3u8 -segment_list_type m3u8 \
      "s%03d.$name")
    rm -rf hls/packed/$name && mv hls/packed/$name.tmp hls/packed/$name
  done
  for v in 360p 720p; do [ -s hls/ffmpeg/ts/$v/iframes.m3u8 ] || iframe_playlist hls/ffmpeg/ts/$v > hls/ffmpeg/ts/$v/iframes.m3u8; done
  [ -s hls/ffmpeg/ts/avg.m3u8 ] || spec_master hls/ffmpeg/ts > hls/ffmpeg/ts/avg.m3u8
  [ -s hls/ffmpeg/ts/avg-desc.m3u8 ] || spec_master hls/ffmpeg/ts desc > hls/ffmpeg/ts/avg-desc.m3u8
  [ -s hls/ffmpeg/ts/missing.m3u8 ] || spec_master hls/ffmpeg/ts asc missing > hls/ffmpeg/ts/missing.m3u8
  [ -s hls/ffmpeg/fmp4/avg.m3u8 ] || spec_master hls/ffmpeg/fmp4 > hls/ffmpeg/fmp4/avg.m3u8
  [ -s hls/ffmpeg/range/avg.m3u8 ] || spec_master hls/ffmpeg/range > hls/ffmpeg/range/avg.m3u8
  # dash/ffmpeg (issue 31): ffmpeg's DASH muxer, 8 s, 360p and 720p video in one adaptation set
  # and AAC audio in another, SegmentTemplate with SegmentTimeline ($RepresentationID$,
  # $Number%05d$), fMP4, 2 s segments: manifest.mpd as ffmpeg writes it.
  if [ ! -s dash/ffmpeg/manifest.mpd ]; then
    rm -rf dash/ffmpeg.tmp && mkdir -p dash/ffmpeg.tmp
    (cd dash/ffmpeg.tmp && timeout -k 5 300 ffmpeg -nostdin -hide_banner -loglevel error \
      -f lavfi -i "testsrc2=size=1280x720:rate=30:duration=8" -f lavfi -i "sine=frequency=440:duration=8:sample_rate=44100" \
      -filter_complex "[0:v]split=2[a][b];[a]scale=640:360[v360];[b]null[v720]" -map "[v360]" -map "[v720]" -map 1:a \
      -c:v libx264 -preset ultrafast -pix_fmt yuv420p -g 60 -keyint_min 60 -sc_threshold 0 -threads 2 \
      -b:v:0 500k -b:v:1 1500k -c:a aac -b:a 96k -ac 2 \
      -f dash -seg_duration 2 -use_template 1 -use_timeline 1 -adaptation_sets "id=0,streams=v id=1,streams=a" manifest.mpd)
    mkdir -p dash && rm -rf dash/ffmpeg && mv dash/ffmpeg.tmp dash/ffmpeg
  fi
else
  echo "make-media: ffmpeg is missing (Resources/scripts/setup.sh installs it): no hls/ffmpeg streams" >&2
fi

# --- benchmark media (make bench) -----------------------------------------------------------------
if [ "$bench" = 1 ]; then
  # reel check --renditions all on a 3-rendition, 60 s stream (hls/bench3: 720p, 360p, 180p).
  make_hls_variant hls/bench3/720 1280 720 smpte 60
  make_hls_variant hls/bench3/360 640 360 smpte 60
  make_hls_variant hls/bench3/180 320 180 smpte 60
  if [ ! -s hls/bench3/master.m3u8 ]; then
    printf '%s\n' '#EXTM3U' \
      '#EXT-X-STREAM-INF:BANDWIDTH=2800000,RESOLUTION=1280x720,FRAME-RATE=30.000,CODECS="avc1.42c01f,mp4a.40.2"' '720/index.m3u8' \
      '#EXT-X-STREAM-INF:BANDWIDTH=2800000,RESOLUTION=640x360,FRAME-RATE=30.000,CODECS="avc1.42c01e,mp4a.40.2"' '360/index.m3u8' \
      '#EXT-X-STREAM-INF:BANDWIDTH=2400000,RESOLUTION=320x180,FRAME-RATE=30.000,CODECS="avc1.42c00d,mp4a.40.2"' '180/index.m3u8' > hls/bench3/master.m3u8.tmp
    mv hls/bench3/master.m3u8.tmp hls/bench3/master.m3u8
  fi
  # The quality lane's packager-made stream (issue 27): ffmpeg's HLS muxer and its own master
  # (-master_pl_name), 360p/720p/1080p of one 60 s programme at rates near hls/abr's (capped VBR:
  # -maxrate/-bufsize, as a packager is usually asked for), 2 s TS segments, 2 s GOPs.
  if command -v ffmpeg >/dev/null && [ ! -s hls/ffmpeg-abr/master.m3u8 ]; then
    rm -rf hls/ffmpeg-abr.tmp && mkdir -p hls/ffmpeg-abr.tmp
    (cd hls/ffmpeg-abr.tmp && timeout -k 5 900 ffmpeg -nostdin -hide_banner -loglevel error \
      -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=60" -f lavfi -i "sine=frequency=440:duration=60:sample_rate=44100" \
      -filter_complex "[0:v]split=3[a][b][c];[a]scale=640:360[v360];[b]scale=1280:720[v720];[c]null[v1080]" \
      -map "[v360]" -map "[v720]" -map "[v1080]" -map 1:a -map 1:a -map 1:a \
      -c:v libx264 -preset ultrafast -pix_fmt yuv420p -g 60 -keyint_min 60 -sc_threshold 0 -threads 2 \
      -b:v:0 400k -maxrate:v:0 450k -bufsize:v:0 450k -b:v:1 1700k -maxrate:v:1 1900k -bufsize:v:1 1900k \
      -b:v:2 4300k -maxrate:v:2 4700k -bufsize:v:2 4700k -c:a aac -b:a 96k -ac 2 \
      -f hls -hls_time 2 -hls_playlist_type vod -master_pl_name master.m3u8 -hls_segment_filename "%v/seg%03d.ts" \
      -var_stream_map "v:0,a:0,name:360p v:1,a:1,name:720p v:2,a:2,name:1080p" "%v/index.m3u8")
    rm -rf hls/ffmpeg-abr && mv hls/ffmpeg-abr.tmp hls/ffmpeg-abr
  fi
fi
exit 0
