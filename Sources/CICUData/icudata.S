// ICU's data for swiftdash: the items of the toolchain's data that swiftdash uses (3.9 MB of
// 34 MB), written by trim_icu_data.py next to this file (`make icu-data`; issue 35, decision 62).
// Defined here under the name ICU looks its data up by, this object is linked before
// lib_FoundationICU.a, so the archive's member holding the whole data is never pulled in. A
// toolchain with another ICU version looks for another name (icudt77_dat, …): this symbol is then
// unused, the whole data is linked as before, and `make icu-data` plus the names below bring the
// saving back.
#if defined(__ELF__) && __has_include("swiftdash-icudt76l.dat")
    .section .rodata.icudt76_dat, "a", @progbits
    .globl icudt76_dat
    .type icudt76_dat, @object
    .balign 16
icudt76_dat:
    .incbin "swiftdash-icudt76l.dat"
    .size icudt76_dat, . - icudt76_dat
#endif
#if defined(__ELF__)
    .section .note.GNU-stack, "", @progbits
#endif
