#!/usr/bin/env python3
"""Keeps po/*.po in step with po/reel.pot (msgmerge), for `make pot`; the translations are the
catalogues' own. usage: po-update.py"""
import glob, subprocess
for po in sorted(glob.glob("po/*.po")):
    subprocess.run(["msgmerge", "--quiet", "--update", "--backup=none", "--no-fuzzy-matching", "--no-wrap", po, "po/reel.pot"], check=True)
