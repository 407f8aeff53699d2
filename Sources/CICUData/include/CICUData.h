/* Nothing to import: this target only links ICU data (icudata.S). */
