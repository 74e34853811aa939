"""Evaluation harnesses behind `remem bench retrieval`: what every benchmark shares
(`harness`: a corpus, the systems compared, their scores), LoCoMo-style conversations
(`locomo`), MADial-Bench memory recall (`madial`) and which of them reads a file
(`datasets`). Imports `remem.memory` and below."""
