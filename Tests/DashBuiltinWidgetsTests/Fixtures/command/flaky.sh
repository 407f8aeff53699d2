#!/bin/sh
# Prints its answer while the flag file is absent; fails silently once it exists.
if [ -e "$1" ]; then exit 2; fi
echo "all good"
