#!/bin/sh
# Logs its start and end, so a test can see whether two runs overlapped.
echo "start $$" >> "$1"
sleep 0.3
echo "end $$" >> "$1"
echo "ran"
