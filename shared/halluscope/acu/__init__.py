"""Atomic content units (ACUs) for dlsd_acu (Mind the Link and FIZZ; docs/papers.md#dl-acu,
#sd-acu, #hosts-fizz-and-fenice).

Summary and document-sentence decomposers (:mod:`.decompose`, their protocol and
caches: a Hugging Face seq2seq claim extractor, the papers' default,
:mod:`.seq2seq_decomposer`, and an offline rule-based proposition splitter,
:mod:`.rule_decomposer`), pronoun resolution (:mod:`.coref`, its offline rules
:mod:`.coref_rules` and their word tables :mod:`.coref_words`), and the pipeline that
scores units against documents with NLI (:mod:`.scoring`; its options
:mod:`.dlsd_options`, its signature :mod:`.dlsd_signature`).
"""
