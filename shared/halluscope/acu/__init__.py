"""Atomic content units (ACUs) for dlsd_acu (Mind the Link and FIZZ; docs/papers.md#dl-acu,
#sd-acu, #hosts-fizz-and-fenice).

Summary and document-sentence decomposers (:mod:`.decompose`: a Hugging Face
seq2seq claim extractor, the papers' default, and an offline rule-based
proposition splitter), pronoun resolution (:mod:`.coref`), and the pipeline that
scores units against documents with NLI.
"""
