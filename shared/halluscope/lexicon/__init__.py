"""WordNet: where it is found and read (:mod:`.wordnet`) and the lexical relations asked of it
(:mod:`.lexical`; docs/lexical.md)."""
