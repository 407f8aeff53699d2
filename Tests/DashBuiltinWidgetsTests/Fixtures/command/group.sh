#!/bin/sh
# Starts a child that would outlive a plain kill of this shell, then waits.
sleep 30 &
echo $! > "$1"
echo started
wait
