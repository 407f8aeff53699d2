#!/bin/sh
# Output a terminal would colour, plus sequences a tile must never pass on.
printf '\033[31mred\033[0m ok\n'
printf '\033[1;32mbold green\033[0m and \033[2mdim\033[22m text\n'
printf '\033]0;window title\007\033[2J\033[Hcleared\033[K\n'
printf '\033]8;;https://example.org\033\\link\033]8;;\033\\ here\n'
printf '10%%\r50%%\r100%% done\n'
printf 'a\tb\tc\n'
printf '\033[38;5;208morange\033[39m \033[38;2;0;128;255mazure\033[m \033[38:2::255:0:0mred2\033[0m\n'
printf 'back\010\010ck\n'
printf 'bidi \342\200\256evil\342\200\254 end\n'
printf '\033P+q544e\033\\\033_apc\033\\\302\23331mc1\n'
printf 'bell\007 and nul\000!\n'
