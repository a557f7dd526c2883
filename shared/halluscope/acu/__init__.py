"""Atomic content units (ACUs) for dlsd_acu (seeds 000 DL-ACU/SD-ACU and 002 FIZZ).

Summary and document-sentence decomposers (:mod:`.decompose`: a Hugging Face
seq2seq claim extractor, the papers' default, and an offline rule-based
proposition splitter), pronoun resolution (:mod:`.coref`), and the pipeline that
scores units against documents with NLI.
"""
