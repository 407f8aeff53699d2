#!/bin/sh
# A swiftdash extension in plain shell (POSIX sh and coreutils only): the machine's uptime.
# One JSON request per line on stdin, one answer per line on stdout (docs/extensions.md).
# The request is read with parameter expansion only: this widget needs just "id" and "method".

describe='{"protocol":1,"widgets":[{"kind":"uptime","displayName":"Uptime","description":"How long this machine has been up","families":["small"],"parameters":[]}]}'

while IFS= read -r line; do
    id=${line#*\"id\":}
    id=${id%%[,\}]*}
    method=${line#*\"method\":\"}
    method=${method%%\"*}
    # The request's time ("now" in its context: `swiftdash render --at` asks for another time),
    # else the clock's.
    case $line in
        *'"now":'*) now=${line#*\"now\":}; now=${now%%[.,\}]*} ;;
        *) now=$(date +%s) ;;
    esac
    case $method in
        describe) result=$describe ;;
        placeholder) result='{"date":0,"view":{"vstack":[{"text":"Uptime","font":"headline"},{"text":"0 d 00:00"}]}}' ;;
        snapshot|timeline)
            read -r up _ < /proc/uptime
            up=${up%%.*}
            days=$((up / 86400))
            hours=$(((up % 86400) / 3600))
            minutes=$(((up % 3600) / 60))
            text=$(printf '%d d %02d:%02d' "$days" "$hours" "$minutes")
            view="{\"vstack\":[{\"text\":\"Uptime\",\"font\":\"headline\"},{\"text\":\"$text\",\"color\":\"accent\"}]}"
            entry="{\"date\":$now,\"summary\":\"up $text\",\"view\":$view}"
            if [ "$method" = snapshot ]; then
                result=$entry
            else
                # Ask again in a minute (the minute count changes).
                result="{\"entries\":[$entry],\"policy\":{\"after\":$((now + 60))}}"
            fi
            ;;
        *) printf '{"id":%s,"error":"unknown method %s"}\n' "$id" "$method"; continue ;;
    esac
    printf '{"id":%s,"result":%s}\n' "$id" "$result"
done
